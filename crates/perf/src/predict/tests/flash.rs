//! Solid-state leaves: many requests at once, bounded by what their flash and interface move.

use crate::leaf::tests::flash;
use crate::predict::predict;
use crate::testkit::{fast_link, system};
use model::hardware::Medium;
use model::Workload;

/// A raidz1-5 of SATA flash of 500 MB/s and 90,000 IOPS: 100 us x 90,000 = 9 requests at once.
fn raidz_of_flash() -> model::System {
    let mut s = system("raidz1-5", 5, 500.0, fast_link());
    for d in &mut s.disks {
        d.model = flash(Medium::Ssd, 500.0, 90_000.0);
    }
    s
}

#[test]
fn a_raidz_of_flash_serves_random_blocks_concurrently() {
    // A 4 KiB read fetches its whole 128 KiB record: 4 data columns of 32 KiB on 4 of the 5
    // disks (rotating), 0.8 x 32 KiB = 26,214 bytes per read on each disk. At 500 MB/s each
    // disk's flash moves 19,073 reads a second; the vdev, its disks serving 9 blocks at once
    // in 100 us + 65.5 us, would allow 54,380. 64 readers reach the flash's bound.
    let s = raidz_of_flash();
    let w = |threads| {
        Workload::parse(&format!(
            "fio-randread:bs=4K,threads={threads},size=100G,cache=cold"
        ))
        .unwrap()
    };
    let many = predict(&s, &w(64)).unwrap();
    assert_eq!(many.bottleneck.kind.word(), "media");
    let bound = 500e6 / (0.8 * 32768.0);
    assert!(
        (many.bottleneck.limit - bound).abs() / bound < 1e-6,
        "{:?}",
        many.bottleneck
    );
    assert!(
        many.iops > 0.97 * bound && many.iops <= bound,
        "{}",
        many.iops
    );
    // One reader waits for its block's slowest column: 165.5 us and the CPU's share.
    let one = predict(&s, &w(1)).unwrap();
    assert!(
        one.iops < 1.0 / 165.5e-6 && one.iops > 4000.0,
        "{}",
        one.iops
    );
}

#[test]
fn flash_streams_at_its_sequential_rate() {
    // Four disks of 500 MB/s in a raidz1-4 at ashift 12: a 128 KiB record is 32 data
    // sectors in 11 rows of 3, 11 parity sectors, padded to 44 (a multiple of parity + 1):
    // 1.375 bytes per byte. Its indirect block pointer (128 of 131,072 bytes) is written
    // twice (metadata's ditto copy): x (1 + 2/1024). The pool writes
    // 4 x 500 / 1.375 / (1 + 2/1024) = 1451.71 MB/s.
    let mut s = system("raidz1-4", 4, 500.0, fast_link());
    for d in &mut s.disks {
        d.model = flash(Medium::Ssd, 500.0, 90_000.0);
    }
    let p = predict(&s, &Workload::parse("dd-write:size=100G").unwrap()).unwrap();
    assert_eq!(p.bottleneck.kind.word(), "media");
    let bound = 2000.0 / 1.375 / (1.0 + 2.0 / 1024.0);
    assert!(
        (p.bottleneck.limit / 1e6 - bound).abs() < 0.01,
        "{:?}",
        p.bottleneck
    );
}
