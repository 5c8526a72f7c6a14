use super::*;
use crate::units::{GIB, KIB, MIB};

#[test]
fn presets_and_parameters() {
    let w = Workload::parse("fio-randread:bs=8K,qd=32,threads=2").unwrap();
    assert_eq!(w.access, Access::Random { read_pct: 100 });
    assert_eq!((w.block_size, w.queue_depth, w.threads), (8192, 32, 2));
    assert_eq!((w.outstanding(), w.engine), (64, Engine::IoUring));
    let dd = Workload::parse("dd-read").unwrap();
    assert_eq!((dd.block_size, dd.access), (MIB, Access::SeqRead));
    assert_eq!(Workload::parse("dd-write").unwrap().data, Data::Zeros);
    let raw = Workload::parse("raw-write:bs=16K,wcache=on,offset=500GB").unwrap();
    assert_eq!(raw.target, Target::RawDisk { write_cache: true });
    assert_eq!(raw.offset_bytes, 500_000_000_000);
    assert!(Workload::parse("dd-read:net=on").unwrap().network);
    let seeks = Workload::parse("bonnie-seeks").unwrap();
    assert_eq!((seeks.threads, seeks.shared_file), (4, true));
    assert_eq!(seeks.access, Access::Seeks { write_pct: 10 });
    let w = Workload::parse("fio-randwrite:engine=psync,fsync=4,direct=on,data=zeros,cache=cold")
        .unwrap();
    assert_eq!(w.engine, Engine::Sync);
    assert_eq!(w.durability, Durability::Every(4));
    let dd = Workload::parse("dd if=/dev/urandom of=/tank/f bs=1M count=100").unwrap();
    assert_eq!(dd.data, Data::Urandom { padded: false });
    assert_eq!(
        Workload::parse("dd-write:data=urandom").unwrap().data,
        Data::Urandom { padded: false }
    );
    // conv=sync pads each short read of the device with zeros to bs.
    let sync = "dd if=/dev/urandom of=/tank/f bs=64M count=8 conv=sync";
    assert_eq!(
        Workload::parse(sync).unwrap().data,
        Data::Urandom { padded: true }
    );
    // Reading a file, there is nothing short to pad.
    let read = Workload::parse("dd if=/tank/f of=/dev/null bs=64M count=8 conv=sync").unwrap();
    assert_eq!(read.data, Data::Random);
    assert!(w.direct);
    assert_eq!((w.data, w.cache), (Data::Zeros, CacheState::Cold));
}

#[test]
fn from_file() {
    let w =
        Workload::from_toml("kind = \"fio-randrw\"\nrwmix = 50\nbs = \"16K\"\nqd = 4\n").unwrap();
    assert_eq!(w.access, Access::Random { read_pct: 50 });
    assert_eq!((w.block_size, w.queue_depth), (16384, 4));
    let b = Workload::from_toml("command = \"bonnie++ -s 2g -f\"\nphase = \"read\"\n").unwrap();
    assert_eq!(
        (b.kind.as_str(), b.data_bytes),
        ("bonnie++ read", Some(2 * GIB))
    );
}

#[test]
fn refuses_nonsense() {
    // Found by the fuzz step: a flag of a multi-byte character was cut inside it (a panic).
    assert_eq!(
        Workload::parse("bonnie++ -é").unwrap_err().0,
        "bonnie++: option '-é' is not modelled"
    );
    assert!(Workload::parse("dd-sideways")
        .unwrap_err()
        .0
        .contains("unknown workload"));
    assert!(Workload::parse("dd-read:bs=0")
        .unwrap_err()
        .0
        .contains("from 1 byte"));
    assert!(Workload::parse("dd-read:qd=0").is_err());
    assert!(Workload::parse("dd-read:wcache=on").is_err());
    assert!(Workload::parse("dd-read:rwmix=50").is_err());
    assert!(Workload::parse("fio-randrw:rwmix=150").is_err());
    assert!(Workload::parse("fio-randread:engine=spdk").is_err());
    assert!(Workload::parse("dd-read:bs")
        .unwrap_err()
        .0
        .contains("key=value"));
    assert!(Workload::from_toml("bs = 4").is_err());
    assert!(parse_all(&"x".repeat(5000))
        .unwrap_err()
        .0
        .contains("at most 4096"));
}

#[test]
fn every_preset_parses_and_the_unknown_message_names_them_all() {
    for p in PRESETS {
        let w = Workload::parse(p.name).unwrap();
        assert_eq!(
            (w.access, w.target, w.block_size, w.engine),
            (p.access, p.target, p.block_size, p.engine)
        );
    }
    let e = Workload::parse("dd-sideways").unwrap_err().0;
    assert_eq!(
        e,
        "unknown workload 'dd-sideways'; known: dd-write, dd-read, iozone-write, iozone-read, \
         fio-randread, fio-randwrite, fio-randrw, fio-write, fio-read, bonnie-write, \
         bonnie-rewrite, bonnie-read, bonnie-seeks, raw-write, raw-read, raw-randread, or a \
         command line of bonnie++, fio, iozone, dd"
    );
}

#[test]
fn a_parameter_is_given_once() {
    assert_eq!(
        Workload::parse("fio-randread:qd=1,qd=64").unwrap_err().0,
        "qd is given twice: give each parameter once"
    );
    assert_eq!(
        Workload::parse("fio-randread:t=2,threads=4").unwrap_err().0,
        "threads is given twice: give each parameter once"
    );
}

#[test]
fn the_data_set_holds_at_least_one_block() {
    assert_eq!(
        Workload::parse("dd-write:size=1K").unwrap_err().0,
        "size=1.00 KiB is smaller than one block (bs=1.00 MiB): the data set holds at least one block"
    );
    assert!(Workload::parse("fio-randread:size=8K,bs=16K").is_err());
}

#[test]
fn bonnie_runs_its_phases_as_its_source_does() {
    // Calomel's run: 16 GiB, no per-character tests, an fsync after each seek's update.
    let spec = "bonnie++ -u root -r 1024 -s 16384 -f -b -n 1 -c 4";
    let phases = parse_all(spec).unwrap();
    let kinds: Vec<&str> = phases.iter().map(|w| w.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "bonnie++ write",
            "bonnie++ rewrite",
            "bonnie++ read",
            "bonnie++ seeks"
        ]
    );
    assert!(phases
        .iter()
        .all(|w| w.data_bytes == Some(16 * GIB) && w.block_size == 8192));
    let seeks = &phases[3];
    assert_eq!((seeks.threads, seeks.shared_file), (5, true));
    assert_eq!(seeks.durability, Durability::Every(1));
    assert_eq!(phases[0].durability, Durability::AtEnd);
    assert_eq!(phases[0].data, Data::Pattern);
    // One phase by name; without -f the per-character phases come first.
    let w = Workload::parse(&format!("{spec} @seeks")).unwrap();
    assert_eq!(w.access, Access::Seeks { write_pct: 10 });
    let all = parse_all("bonnie++ -s 1g:16k:8192:3").unwrap();
    assert_eq!(all[0].kind, "bonnie++ putc");
    assert_eq!((all[0].block_size, all[0].data_bytes), (1, Some(3 * MIB)));
    assert_eq!(all.last().unwrap().threads, 3);
    assert_eq!(all[1].block_size, 16384);
    // Sized by RAM without -s; refused with neither.
    assert_eq!(
        parse_all("bonnie++ -r 8192 -f").unwrap()[0].data_bytes,
        Some(16 * GIB)
    );
    assert!(parse_all("bonnie++ -f").unwrap_err().0.contains("give -s"));
    assert!(Workload::parse(spec)
        .unwrap_err()
        .0
        .contains("4 timed phases"));
    assert!(Workload::parse(&format!("{spec} @fly"))
        .unwrap_err()
        .0
        .contains("no phase 'fly'"));
}

#[test]
fn fio_options_as_fio_reads_them() {
    let w = Workload::parse(
        "fio --name=t --rw=randread --bs=4k --iodepth 32 --numjobs=4 --size=10g --direct=1 \
         --ioengine=libaio --time_based --runtime=60 --group_reporting",
    )
    .unwrap();
    assert_eq!(w.kind, "fio randread");
    assert_eq!((w.block_size, w.queue_depth, w.threads), (4096, 32, 4));
    assert_eq!(
        (w.engine, w.direct, w.data_bytes),
        (Engine::Libaio, true, Some(10 * GIB))
    );
    let d = Workload::parse("fio --rw=write --bs=1m --size=1g").unwrap();
    assert_eq!(
        (d.engine, d.access, d.durability),
        (Engine::Sync, Access::SeqWrite, Durability::None)
    );
    let s = Workload::parse("fio --rw=randrw --rwmixread=30 --fsync=1 --filename=/tank/f").unwrap();
    assert_eq!(s.access, Access::Random { read_pct: 30 });
    assert_eq!((s.durability, s.shared_file), (Durability::Every(1), true));
    // Without --size the job covers its file: --filesize; --size wins where both are given.
    let f = |spec: &str| Workload::parse(spec).unwrap().data_bytes;
    assert_eq!(f("fio --rw=read --filename=t --filesize=1G"), Some(GIB));
    assert_eq!(f("fio --rw=read --filesize=1G --size=2G"), Some(2 * GIB));
    assert_eq!(f("fio --rw=read --filesize=1G-2G"), None);
    assert!(Workload::parse("fio job.fio").is_err());
    assert!(Workload::parse("fio --rw=trim")
        .unwrap_err()
        .0
        .contains("not modelled"));
    assert!(Workload::parse("fio --rw=read --verify=md5")
        .unwrap_err()
        .0
        .contains("--verify"));
}

#[test]
fn iozone_phases() {
    let all = parse_all("iozone -i 0 -i 1 -t 4 -s 1g -r 128k -e -+n").unwrap();
    let kinds: Vec<&str> = all.iter().map(|w| w.kind.as_str()).collect();
    assert_eq!(kinds, ["iozone write", "iozone read"]);
    assert!(all.iter().all(|w| w.threads == 4 && w.block_size == 131072));
    assert_eq!(
        (all[0].data_bytes, all[0].durability),
        (Some(GIB), Durability::AtEnd)
    );
    // Sizes in KiB without a suffix; random tests in pairs.
    let r = parse_all("iozone -i 2 -s 1024 -r 4 -I").unwrap();
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0].data_bytes, r[0].block_size, r[0].direct),
        (Some(MIB), 4096, true)
    );
    assert!(parse_all("iozone -a")
        .unwrap_err()
        .0
        .contains("one -s and one -r"));
    assert!(parse_all("iozone -a -s 4g -r 4k -r 128k").is_err());
    // Automatic mode fixed to one size runs it: tests 0-2 unless -i names them.
    let auto = parse_all("iozone -a -s 4g -r 128k").unwrap();
    let kinds: Vec<_> = auto.iter().map(|w| w.kind.as_str()).collect();
    assert_eq!(auto[0].block_size, 128 * KIB);
    assert_eq!(auto[0].data_bytes, Some(4 * GIB));
    assert!(kinds.contains(&"iozone random-read"), "{kinds:?}");
    let picked = parse_all("iozone -a -s 4g -r 128k -i 0 -i 1").unwrap();
    assert!(picked.iter().all(|w| !w.kind.contains("random")));
    assert!(parse_all("iozone -s 1g").unwrap_err().0.contains("-i"));
}

#[test]
fn dd_reads_and_writes() {
    let w = Workload::parse("dd if=/dev/zero of=/tank/f bs=1M count=10000 conv=fdatasync").unwrap();
    assert_eq!(
        (w.access, w.data, w.durability),
        (Access::SeqWrite, Data::Zeros, Durability::AtEnd)
    );
    assert_eq!(w.data_bytes, Some(10000 * MIB));
    let r = Workload::parse("dd if=/tank/f of=/dev/null bs=128k").unwrap();
    assert_eq!(
        (r.access, r.block_size, r.data_bytes),
        (Access::SeqRead, 131072, None)
    );
    let raw = Workload::parse("dd if=/dev/zero of=/dev/rdsk/c1t1d0s0 bs=64k count=100").unwrap();
    assert_eq!(raw.target, Target::RawDisk { write_cache: true });
    assert_eq!(
        Workload::parse("dd if=/dev/zero of=f count=2")
            .unwrap()
            .block_size,
        512
    );
    assert!(Workload::parse("dd if=/dev/zero of=f")
        .unwrap_err()
        .0
        .contains("count="));
    assert!(Workload::parse("dd if=a of=b").is_err());
}

#[test]
fn dd_conv_notrunc_writes_over_a_file_in_place() {
    let over = |spec: &str| Workload::parse(spec).unwrap();
    let w = over("dd if=/dev/zero of=/homez/zero bs=65536 count=327680 conv=notrunc");
    assert_eq!((w.access, w.target), (Access::Overwrite, Target::Pool));
    assert_eq!(w.kind, "dd overwrite");
    assert!(w.access.is_sequential() && w.access.writes() && !w.access.reads_stream());
    // A zvol's blocks are written over as a file's; a disk is never truncated.
    let zvol = over("dd if=/dev/zero of=/dev/zvol/tank/v bs=4k count=10 conv=notrunc");
    assert_eq!(zvol.access, Access::Overwrite);
    let raw = over("dd if=/dev/zero of=/dev/sdb bs=1M count=10 conv=notrunc");
    assert_eq!(raw.access, Access::SeqWrite);
    assert_eq!(
        over("dd if=/dev/zero of=f bs=1M count=1").access,
        Access::SeqWrite
    );
}

#[test]
fn a_command_names_every_phase_unless_one_is_chosen() {
    let bonnie = "bonnie++ -s 16384 -r 1024 -f -b";
    let all = super::parse_phases(bonnie).unwrap();
    let kinds: Vec<&str> = all.iter().map(|w| w.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "bonnie++ write",
            "bonnie++ rewrite",
            "bonnie++ read",
            "bonnie++ seeks"
        ]
    );
    let seeks = super::parse_phases(&format!("{bonnie} @seeks")).unwrap();
    assert_eq!(seeks.len(), 1);
    assert_eq!(seeks[0].kind, "bonnie++ seeks");
    let file = super::phases_from_toml(&format!("command = \"{bonnie}\"")).unwrap();
    assert_eq!(file.len(), 4);
    let one = super::phases_from_toml(&format!("command = \"{bonnie}\"\nphase = \"read\""));
    assert_eq!(one.unwrap()[0].kind, "bonnie++ read");
    let e = Workload::parse(bonnie).unwrap_err().0;
    assert_eq!(
        e,
        "this run has 4 timed phases (write, rewrite, read, seeks): add @PHASE to choose one"
    );
    assert_eq!(super::parse_phases("dd-read").unwrap().len(), 1);
}

#[test]
fn fio_as_a_2025_nas_benchmark_runs_it() {
    // clemtibs/zfs_benchmark_tools: ioengine=sync is plain write(2), not O_SYNC; a runtime
    // without time_based and the buffer options change nothing the model sees.
    let w = Workload::parse(
        "fio --name=sync_rand_write --ioengine=sync --rw=randwrite --bs=4k --refill_buffers \
         --direct=1 --size=2G --numjobs=4 --end_fsync=1 --time_based --runtime=60 --group_reporting",
    )
    .unwrap();
    assert_eq!((w.engine, w.durability), (Engine::Sync, Durability::AtEnd));
    assert_eq!(w.access, Access::Random { read_pct: 0 });
    let mixed = Workload::parse(
        "fio --name=m --rw=rw --rwmixread=70 --bs=1M --runtime=30 --buffer_compress_percentage=50",
    )
    .unwrap();
    assert_eq!(mixed.access, Access::SeqMix { read_pct: 70 });
    assert!(mixed.access.is_sequential() && mixed.access.writes() && mixed.access.reads_stream());
    let rand = Workload::parse("fio --rw=randrw --rwmixwrite=30").unwrap();
    assert_eq!(rand.access, Access::Random { read_pct: 70 });
    assert!(!rand.access.reads_stream());
    let all_writes = Workload::parse("fio --rw=readwrite --rwmixread=0").unwrap();
    assert!(!all_writes.access.reads_stream());
    assert_eq!(mixed.data, Data::Compressible { percent: 50 });
    assert_eq!(mixed.kind, "fio rw");
    let psync = Workload::parse("fio --rw=write --ioengine=psync --bs=128k --sync=1").unwrap();
    assert_eq!(psync.durability, Durability::EachWrite);
    assert!(Workload::parse("fio --rw=trim").is_err());
    assert!(Workload::parse("fio --rw=write --bogus=1").is_err());
}

#[test]
fn sparse_records_by_their_fill() {
    let w = Workload::parse("fio-randwrite:data=sparse-12").unwrap();
    assert_eq!(w.data, Data::Sparse { fill_pct: 12 });
    for bad in ["sparse-0", "sparse-101", "sparse", "holes"] {
        assert!(
            Workload::parse(&format!("fio-randwrite:data={bad}")).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn fio_on_a_device_node_writes_the_raw_disk() {
    // d-uzlov/k8s-homelab's etcd test on the bare devices (test-fsync.md).
    let etcd = "fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=4k --name=mytest";
    let raw = Workload::parse(&format!("{etcd} --filename=/dev/nvme1n1")).unwrap();
    assert_eq!(raw.target, Target::RawDisk { write_cache: true });
    assert_eq!(raw.durability, Durability::Every(1));
    let file = Workload::parse(&format!("{etcd} --filename=test-data")).unwrap();
    assert_eq!(file.target, Target::Pool);
    let zvol = Workload::parse(&format!("{etcd} --filename=/dev/zd16")).unwrap();
    assert_eq!(zvol.target, Target::Zvol { volblocksize: None });
}

#[test]
fn a_device_node_starts_cold_unless_the_run_says_warm() {
    // Nothing read a disk's node before the run: its page cache holds none of it. A zvol's
    // node and a pool's file keep the default (the ARC holds what the run wrote).
    let cache = |spec: &str| Workload::parse(spec).unwrap().cache;
    assert_eq!(
        cache("dd if=/dev/nvme0n1 of=/dev/null bs=4K count=10"),
        CacheState::Cold
    );
    assert_eq!(
        cache("fio --name=r --rw=read --filename=/dev/sdb"),
        CacheState::Cold
    );
    assert_eq!(
        cache("cache=warm dd if=/dev/nvme0n1 of=/dev/null bs=4K count=10"),
        CacheState::Warm
    );
    assert_eq!(
        cache("dd if=/dev/zvol/tank/v of=/dev/null bs=1M count=10"),
        CacheState::Warm
    );
    assert_eq!(
        cache("dd if=/tank/f of=/dev/null bs=1M count=10"),
        CacheState::Warm
    );
}

#[test]
fn each_command_line_names_its_tool() {
    let tool = |spec: &str| Workload::parse(spec).unwrap().tool;
    assert_eq!(
        tool("dd if=/dev/nvme0n1 of=/dev/null bs=4K count=10"),
        Tool::Dd
    );
    assert_eq!(tool("fio --rw=randread --bs=4k --size=1g"), Tool::Fio);
    assert_eq!(tool("iozone -i 0 -s 1g -r 128k @write"), Tool::Iozone);
    assert_eq!(tool("bonnie++ -s 16384 -f @read"), Tool::Bonnie);
    // A preset named after dd runs only its requests: no second call per block.
    assert_eq!(tool("dd-read"), Tool::Preset);
}
