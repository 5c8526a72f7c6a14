//! Dataset properties of modern pools, each through its mechanism: special_small_blocks sends
//! small records to the special vdev, primarycache=metadata keeps data out of the ARC, and
//! encryption costs CPU per byte.

use model::{Catalog, System, Workload};
use zpoolsim_perf as perf;

/// Six hard disks in raidz2 and a special mirror of two NVMe drives, with `dataset` lines.
fn pool(dataset: &str, cpu: &str) -> System {
    let text = format!(
        "name = \"t\"\n[host]\ncpu = \"{cpu}\"\nram = \"64GiB\"\nzfs = \"openzfs-2.2\"\n\
         [[disk]]\nname = \"sd{{}}\"\ncount = 6\nmodel = \"seagate-exos-x20-20tb\"\n\
         [[disk]]\nname = \"nvme{{}}\"\ncount = 2\nmodel = \"samsung-990-pro-2tb\"\n\
         [pool]\nlayout = \"raidz2-6\"\nspecial = \"mirror-2\"\nashift = 12\n\
         [[dataset]]\nname = \"tank\"\nrecordsize = \"16K\"\ncompression = \"off\"\n{dataset}\n"
    );
    model::system_file::parse(&text, "t.toml", Catalog::embedded())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn iops(s: &System, w: &str) -> f64 {
    perf::predict(s, &Workload::parse(w).unwrap()).unwrap().iops
}

#[test]
fn small_blocks_go_to_the_special_vdev() {
    let w = "fio-randread:bs=16K,qd=32,threads=4,size=100G,cache=cold";
    let hdd = iops(&pool("", "amd-epyc-7313p"), w);
    let special = iops(&pool("special_small_blocks = \"16K\"", "amd-epyc-7313p"), w);
    // Six hard disks serve some thousand random reads a second; two NVMe drives far more.
    assert!(hdd < 5_000.0, "{hdd}");
    assert!(special > 20.0 * hdd, "{special} vs {hdd}");
    // Records larger than the threshold stay on the hard disks.
    let larger = iops(&pool("special_small_blocks = \"8K\"", "amd-epyc-7313p"), w);
    assert_eq!(larger, hdd);
}

#[test]
fn primarycache_metadata_reads_every_block_from_disk() {
    let w = "fio-randread:bs=16K,qd=32,threads=4,size=1G";
    let cached = iops(&pool("", "amd-epyc-7313p"), w);
    let metadata = iops(&pool("primarycache = \"metadata\"", "amd-epyc-7313p"), w);
    let cold = iops(&pool("", "amd-epyc-7313p"), &format!("{w},cache=cold"));
    assert!(cached > 10.0 * metadata, "{cached} vs {metadata}");
    assert!((metadata / cold - 1.0).abs() < 1e-9, "{metadata} vs {cold}");
}

#[test]
fn encryption_costs_cpu_per_byte() {
    // A CPU-bound stream on NVMe: a 2008 CPU without AES-NI, CCM at its slowest.
    let w = "fio-write:size=100G,threads=8,end_fsync=on";
    let s = |d: &str| {
        pool(
            &format!("special_small_blocks = \"16K\"\n{d}"),
            "assumed-cpu-2008",
        )
    };
    let plain = perf::predict(&s(""), &Workload::parse(w).unwrap()).unwrap();
    let ccm = perf::predict(
        &s("encryption = \"aes-256-ccm\""),
        &Workload::parse(w).unwrap(),
    )
    .unwrap();
    assert!(
        ccm.throughput_bytes_per_s < 0.5 * plain.throughput_bytes_per_s,
        "{} vs {}",
        ccm.throughput_bytes_per_s,
        plain.throughput_bytes_per_s
    );
}

#[test]
fn from_2_4_the_zil_writes_to_the_special_vdev() {
    // Synchronous 4K writes on hard disks: OpenZFS 2.2 commits them to the raidz2; 2.4 to the
    // NVMe special mirror, as it would to a log device.
    let w = "fio-randwrite:bs=4K,sync=on,threads=4,size=10G";
    let v22 = pool("", "amd-epyc-7313p");
    let mut v24 = v22.clone();
    v24.host.zfs = "openzfs-2.4".parse().unwrap();
    let (old, new) = (iops(&v22, w), iops(&v24, w));
    assert!(new > 3.0 * old, "2.4 {new} vs 2.2 {old}");
}

/// A block read from the disks is decrypted on the thread that asks for it (arc_read's hit
/// path, arc_buf_fill): one sequential reader of a CCM dataset is held to one core's cipher
/// rate, 69.1 cycles a byte (OpenZFS PR #9749's per-block path), 3.0 GHz / 69.1 / 0.75 = 58 MB/s
/// on the EPYC 7313P (2021), however many cores the cipher could use while writing.
#[test]
fn one_reader_decrypts_on_its_own_thread() {
    let w = Workload::parse("dd-read:size=100G").unwrap();
    let s = pool("encryption = \"aes-256-ccm\"", "amd-epyc-7313p");
    let p = perf::predict(&s, &w).unwrap();
    assert_eq!(p.bottleneck.resource, "application threads");
    let mb_s = p.throughput_bytes_per_s / 1e6;
    assert!((45.0..=58.0).contains(&mb_s), "{mb_s}");
}
