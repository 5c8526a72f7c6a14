//! The benchmarks' command lines through the whole model: every timed phase predicts, and
//! the phases relate as the tools' semantics say.

use super::{mb_s, predict};
use crate::testkit::{fast_link, system};
use model::workload::parse_all;
use model::Workload;

/// Every phase of `command` on a 4-disk raidz1 of 200 MB/s disks, by phase name.
fn phases(command: &str) -> Vec<(String, crate::Prediction)> {
    let s = system("raidz1-4", 4, 200.0, fast_link());
    parse_all(command)
        .unwrap()
        .iter()
        .map(|w| {
            let p = predict(&s, w).unwrap();
            assert!(p.throughput_bytes_per_s.is_finite() && p.throughput_bytes_per_s > 0.0);
            (w.kind.clone(), p)
        })
        .collect()
}

fn rate(phases: &[(String, crate::Prediction)], kind: &str) -> f64 {
    let (_, p) = phases.iter().find(|(k, _)| k == kind).unwrap();
    p.throughput_bytes_per_s
}

#[test]
fn bonnie_rewrite_is_slower_than_its_write_and_read_and_seeks_are_disk_bound() {
    // A 256 GiB file, four times the host's RAM.
    let run = phases("bonnie++ -u root -r 1024 -s 262144 -f -b -n 1 -c 4");
    let kinds: Vec<&str> = run.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "bonnie++ write",
            "bonnie++ rewrite",
            "bonnie++ read",
            "bonnie++ seeks"
        ]
    );
    let (write, rewrite, read) = (
        rate(&run, "bonnie++ write"),
        rate(&run, "bonnie++ rewrite"),
        rate(&run, "bonnie++ read"),
    );
    // Rewrite reads each chunk and writes it back: the disks alternate between the two.
    assert!(rewrite < write.min(read), "{rewrite} {write} {read}");
    // Seeks: 5 seekers' random 8 KiB reads of 128 KiB records on one raidz vdev, which serves
    // a block like one 7200 rpm disk: tens to a few hundred a second.
    let (_, seeks) = run.iter().find(|(k, _)| k == "bonnie++ seeks").unwrap();
    assert!(seeks.iops > 40.0 && seeks.iops < 300.0, "{}", seeks.iops);
}

#[test]
fn iozone_rereads_find_the_arc() {
    // Four 1 GiB files on a 64 GiB host: the reread comes from memory, the first read from the
    // disks (the write that made the files left them cached too, so both find the ARC).
    let run = phases("iozone -i 0 -i 1 -i 2 -t 4 -s 1g -r 128k");
    let kinds: Vec<&str> = run.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(kinds.len(), 6, "{kinds:?}");
    assert!(rate(&run, "iozone reread") >= rate(&run, "iozone read"));
    let (_, reread) = run.iter().find(|(k, _)| k == "iozone reread").unwrap();
    assert_eq!(reread.arc_hit_ratio, 1.0);
}

#[test]
fn o_direct_bypasses_the_arc_from_openzfs_2_3_only() {
    let w = Workload::parse("fio-randread:bs=4K,size=1G,direct=on").unwrap();
    let mut s = system("stripe-1", 1, 200.0, fast_link());
    s.host.zfs = "2.3.0".parse().unwrap();
    assert_eq!(predict(&s, &w).unwrap().arc_hit_ratio, 0.0);
    s.host.zfs = "2.2.6".parse().unwrap();
    assert_eq!(predict(&s, &w).unwrap().arc_hit_ratio, 1.0);
}

#[test]
fn dd_and_fio_command_lines_predict_as_their_presets() {
    let s = system("stripe-2", 2, 200.0, fast_link());
    let one = |spec: &str| predict(&s, &Workload::parse(spec).unwrap()).unwrap();
    let dd = one("dd if=/tank/f of=/dev/null bs=1M count=10000");
    let preset = one("dd-read:size=10000M");
    assert_eq!(dd.throughput_bytes_per_s, preset.throughput_bytes_per_s);
    let fio = one(
        "fio --name=r --rw=randread --bs=4k --iodepth=16 --ioengine=libaio --direct=1 --size=4g",
    );
    assert!(fio.iops > 0.0);
}

/// fio on a zvol (`filename=/dev/zvol/...`): each 4 KiB read fetches the zvol's 16 KiB block
/// (the 2.2 default volblocksize), not the file's 128 KiB record.
#[test]
fn a_zvol_reads_its_volblocksize_per_request() {
    let s = system("stripe-1", 1, 200.0, fast_link());
    let per_read = |spec: &str| {
        let p = predict(&s, &Workload::parse(spec).unwrap()).unwrap();
        p.vdevs[0].read_bytes_per_s / p.iops
    };
    let zvol =
        per_read("fio --name=r --rw=randread --bs=4k --size=100G --filename=/dev/zvol/tank/v");
    let file = per_read("fio --name=r --rw=randread --bs=4k --size=100G --filename=/tank/f");
    // The same share of misses (the ARC's share of 100 GiB) either way.
    assert!(
        (zvol / file - 16384.0 / 131072.0).abs() < 1e-9,
        "{zvol} {file}"
    );
    assert!(zvol > 0.5 * 16384.0, "{zvol}");
}

/// `dd conv=notrunc` writes over a file in place: a write of part of a record first reads the
/// record (dmu_buf_will_dirty), once for the rs / bs writes it takes, unless the ARC holds it;
/// a write of whole records reads nothing (dmu_buf_will_fill).
#[test]
fn dd_conv_notrunc_reads_each_record_it_writes_part_of() {
    let s = system("stripe-1", 1, 200.0, fast_link());
    let run = |spec: &str| predict(&s, &Workload::parse(spec).unwrap()).unwrap();
    // 200 GiB, past the 64 GiB host's ARC: one 128 KiB record read per two 64 KiB writes,
    // as many bytes as the txg writes of it (with its block pointer, twice).
    let dd = "dd if=/dev/zero of=/tank/f";
    let part = run(&format!("{dd} bs=64k count=3276800 conv=notrunc"));
    let v = &part.vdevs[0];
    let meta = 1.0 + 256.0 / 131072.0;
    let per_written = v.read_bytes_per_s / v.write_bytes_per_s;
    assert!((per_written - 1.0 / meta).abs() < 1e-9, "{per_written}");
    // Whole records: no reads, and the rate of a plain write (the disk's; the calls cost a
    // little more, each looking up the block it replaces). A file the ARC holds: no reads.
    let whole = run(&format!("{dd} bs=128k count=1638400 conv=notrunc"));
    let plain = run(&format!("{dd} bs=128k count=1638400"));
    assert_eq!(whole.vdevs[0].read_bytes_per_s, 0.0);
    assert!(
        (mb_s(&whole) / mb_s(&plain) - 1.0).abs() < 0.01,
        "{}",
        mb_s(&whole)
    );
    let cached = run(&format!("{dd} bs=64k count=16384 conv=notrunc"));
    assert_eq!(cached.vdevs[0].read_bytes_per_s, 0.0);
    // The writer waits for each record's read, which nothing reads ahead of: one read of
    // positioning and transfer at a time, far below the disk's streaming rate.
    let write = run(&format!("{dd} bs=64k count=3276800"));
    assert!(
        mb_s(&part) < mb_s(&write) / 4.0,
        "{} {}",
        mb_s(&part),
        mb_s(&write)
    );
}
