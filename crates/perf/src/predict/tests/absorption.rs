//! The write throttle's buffer: a write phase runs ahead of the disks until its dirty data
//! reach zfs_delay_min_dirty_percent of zfs_dirty_data_max, then at the disks' pace.

use super::predict;
use crate::figures::absorbed_rate;
use crate::testkit::{fast_link, system};
use model::Workload;

fn dd(count_mib: u64, conv: &str) -> Workload {
    let spec = format!("dd if=/dev/zero of=f bs=1M count={count_mib}{conv}");
    Workload::parse(&spec).unwrap()
}

#[test]
fn a_write_phase_runs_ahead_of_the_disks_into_dirty_data() {
    // One 200 MB/s disk on a 64 GiB host: dirty_data_max = min(10% of RAM, 4 GiB) = 4 GiB,
    // the delay starting at 60% of it: 2.4 GiB written at the application's pace.
    let s = system("stripe-1", 1, 200.0, fast_link());
    let buffer = 0.6 * 4.0 * (1u64 << 30) as f64;
    let small = predict(&s, &dd(1000, "")).unwrap();
    let disk = small.bottleneck.limit;
    // 1000 MiB fit in the buffer: the application's pace throughout, far above the disk's.
    let app = small.throughput_bytes_per_s;
    assert!(app > 5.0 * disk, "{app} {disk}");
    // 20,000 MiB: the buffer fills at app - disk, then the disks' pace.
    let bytes = 20_000.0 * (1u64 << 20) as f64;
    let large = predict(&s, &dd(20_000, "")).unwrap();
    let want = absorbed_rate(bytes, app, disk, buffer);
    // (The steady pace is the disk's bound within the queueing model's 1%.)
    let got = large.throughput_bytes_per_s;
    assert!((got / want - 1.0).abs() < 0.01, "{got} {want}");
    assert!(want > disk && want < 1.2 * disk, "{want} {disk}");
    // conv=fdatasync waits for every byte to reach the disk: the disks' pace.
    let synced = predict(&s, &dd(1000, " conv=fdatasync")).unwrap();
    assert!(synced.throughput_bytes_per_s <= disk * (1.0 + 1e-9));
}
