//! Random writes into records their txg holds dirty already (redirty.rs).

use super::*;
use crate::release::Release;

/// The pool's write bytes over the application's, for fio's random writes of `bs` over 4 GiB
/// into 128 KiB records on a one-disk pool of the test host (64 GiB), the timing waiting for
/// the last txg (end_fsync: no dirty data left behind).
fn amplification(bs: &str) -> f64 {
    let s = system("stripe-1", 1, 200.0, fast_link());
    let w = format!(
        "fio --name=w --rw=randwrite --bs={bs} --size=4g --runtime=60 --time_based --end_fsync=1"
    );
    let p = predict(&s, &Workload::parse(&w).unwrap()).unwrap();
    let disk: f64 = p.devices.iter().map(|d| d.write_bytes_per_s).sum();
    disk / p.write_bytes_per_s
}

/// 4 KiB writes over 4 GiB into 128 KiB records write each record dirtied in a txg once: the
/// pool writes 32 x anew_share records' bytes per written byte, where each write wrote its
/// whole record before, plus the level-1 blocks the txg dirties.
#[test]
fn small_random_writes_write_each_dirty_record_once_a_txg() {
    let s = system("stripe-1", 1, 200.0, fast_link());
    let release = Release::of(s.host.zfs, &s.host.tunables);
    let per_txg = release.write_buffer_bytes(s.host.ram_bytes) / 131_072.0;
    let span = 4u64 << 30;
    let ibs = crate::indirect::indirect_bytes(release.zfs.openzfs_line());
    let meta = crate::indirect::random_metadata_per_data_byte(span as f64, 128 << 10, per_txg, ibs);
    let anew = crate::redirty::anew_share(Some(span), 4096, 128 << 10, per_txg);
    // The host's txg holds most of the file: a record takes several writes a txg.
    assert!(anew < 0.7, "{anew}");
    let want = 32.0 * anew * (1.0 + meta);
    let got = amplification("4k");
    assert!((got - want).abs() < 0.01 * want, "{got} against {want}");
    // Whole-record writes dirty one record each.
    let whole = amplification("128k");
    assert!((whole - (1.0 + meta)).abs() < 0.01, "{whole}");
}
