//! A pass over a file the ARC does not hold starts with its reader waiting, read after read:
//! for the indirect blocks down to the first record, then for prefetch to get ahead
//! (load/stream.rs `start_s`).

use super::predict;
use crate::constants::Constants;
use crate::figures::started_rate;
use crate::leaf::DiskTiming;
use crate::testkit::{fast_link, system};
use model::Workload;

fn dd(count_mib: u64, cache: &str) -> Workload {
    let spec = format!("cache={cache} dd if=/tank/f of=/dev/null bs=1M count={count_mib}");
    Workload::parse(&spec).unwrap()
}

#[test]
fn a_cold_pass_waits_for_the_indirect_blocks_and_prefetch_s_doublings() {
    // Six 200 MB/s disks in a stripe, OpenZFS 2.4: 512 MiB of 128 KiB records hang from one
    // level-2 block over four level-1 blocks, two reads before the first record; then the
    // access to block 0, the miss that makes the stream, and 1 MiB doubled twice to
    // zfetch_min_distance (4 MiB): four round trips, each a record's read on a disk whose
    // head lies over the file.
    let s = system("stripe-6", 6, 200.0, fast_link());
    let t = DiskTiming::new(
        &s.disks[0].model,
        Constants::fitted().disk_command_overhead_s(),
    );
    let start =
        2.0 * t.random_io_s(131072.0, 1.0, 1, false) + 4.0 * t.random_io_s(131072.0, 0.0, 1, false);
    assert!(start > 0.04 && start < 0.07, "{start}");
    let cold = predict(&s, &dd(512, "cold")).unwrap();
    let bytes = 512.0 * (1u64 << 20) as f64;
    let steady = steady_rate(&cold);
    let want = started_rate(bytes, steady, start);
    let got = cold.throughput_bytes_per_s;
    // (The disks also read the file's metadata: within 0.1%.)
    assert!((got / want - 1.0).abs() < 1e-3, "{got} {want}");
    // About a tenth of a 512 MiB pass at 1.17 GB/s.
    assert!(got > 0.88 * steady && got < 0.92 * steady, "{got} {steady}");
    // A file the ARC holds starts nowhere near the disks.
    let warm = predict(&s, &dd(512, "warm")).unwrap();
    assert!(warm.throughput_bytes_per_s > cold.bottleneck.limit);
}

#[test]
fn a_long_pass_hardly_sees_its_start() {
    let s = system("stripe-6", 6, 200.0, fast_link());
    let long = predict(&s, &dd(64 << 10, "cold")).unwrap();
    let got = long.throughput_bytes_per_s / steady_rate(&long);
    assert!(got > 0.999 && got < 1.0, "{got}");
}

/// The disks' bytes read per second: the pass's steady pace (uncompressed records read
/// whole, nothing else on the disks; the device figures are the steady state's).
fn steady_rate(p: &crate::figures::Prediction) -> f64 {
    p.devices.iter().map(|d| d.read_bytes_per_s).sum()
}

#[test]
fn before_0_8_a_waited_prefetch_stays_in_the_async_class() {
    // One cold reader of six 200 MB/s disks, prefetch 8 MiB ahead (0.7 and 0.8 alike), I/Os
    // aggregated to 128 KiB (the 0.7 default, set on both): each leaf keeps
    // zfs_vdev_async_read_max_active = 3 of prefetch's reads active. From 0.8 the record the
    // reader waits on is raised to the sync class (zio_change_priority), one read more on
    // its leaf; before, it waits among the three. Six leaves: 18 records in flight against 24.
    let mut s = system("stripe-6", 6, 200.0, fast_link());
    s.host.tunables.aggregation_limit = Some(128 << 10);
    let in_flight = |s: &mut model::System, zfs: &str| {
        s.host.zfs = zfs.parse().unwrap();
        predict(s, &dd(512, "cold")).unwrap().concurrency
    };
    assert_eq!(in_flight(&mut s, "zol-0.7.13"), 18);
    assert_eq!(in_flight(&mut s, "zol-0.8.2"), 24);
}
