//! How much dirty data a txg holds when it closes: how many of a random writer's partial
//! writes fall into records the txg already holds dirty (redirty.rs) and how many indirect
//! blocks it rewrites (indirect.rs).
//!
//! txg_sync_thread (txg.c) leaves the open txg open until zfs_txg_timeout passes or the pool's
//! dirty data reaches dirty_min_bytes, zfs_dirty_data_sync_percent (20) of zfs_dirty_data_max
//! (OpenZFS 0.8 on; ZoL 0.6.x-0.7 a fixed zfs_dirty_data_sync of 64 MiB, dsl_pool.c), then has
//! it quiesced and syncs it. A pool that writes the txg's records faster than the application
//! dirties them finds that much dirty when the sync before is done, and syncs each txg at the
//! threshold. A pool that cannot keep up lets dirty data pile up until the write throttle
//! holds the writers back (zfs_delay_min_dirty_percent, 60), and each txg holds what the
//! throttle lets through (`Release::write_buffer_bytes`). The timeout is not counted: a writer
//! dirtying less than the threshold in 5 s is taken at the threshold too.

use crate::release::{Release, Throttle};
use crate::station::{Kind, Station};
use model::workload::Workload;

/// Whether the pool's writeback keeps up with the writers (they bound the rate) or holds them
/// back (a disk, a link or the txg's own CPU work bound it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fill {
    KeptUp,
    Throttled,
}

/// zfs_dirty_data_sync of ZoL 0.6.x-0.7 (dsl_pool.c): 64 MiB.
const DIRTY_DATA_SYNC_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// zfs_dirty_data_sync_percent from OpenZFS 0.8 (dsl_pool.c): 20.
const DIRTY_DATA_SYNC_SHARE: f64 = 0.20;

/// Bytes of dirty records a txg holds when it closes on `release` with `ram` bytes of memory.
/// Before the 2013 throttle (`WriteLimit`) a txg fills to its write limit either way.
pub(crate) fn txg_bytes(release: &Release, ram: u64, fill: Fill) -> f64 {
    let throttled = release.write_buffer_bytes(ram);
    match (fill, release.throttle) {
        (Fill::KeptUp, Throttle::Dirty { .. }) => {
            let threshold = if release.zfs.openzfs_line() >= (0, 8) {
                release.dirty_data_max_bytes(ram) * DIRTY_DATA_SYNC_SHARE
            } else {
                DIRTY_DATA_SYNC_BYTES
            };
            threshold.min(throttled)
        }
        _ => throttled,
    }
}

/// Whether the txg's fill changes `w`'s loads: random writes over a stated span (whose
/// records a txg may already hold dirty, and whose indirect blocks it rewrites).
pub(crate) fn matters(w: &Workload) -> bool {
    w.access.writes() && !w.access.is_sequential() && w.total_bytes().is_some()
}

/// Whether the writers bound the rate of a network of `stations`: the station of least
/// capacity is the application's threads or the CPU on their path (in the cycle), not a disk,
/// a link or the txg's writeback.
pub(crate) fn writers_bound(stations: &[Station]) -> bool {
    let capacity = |s: &Station| f64::from(s.servers) / s.demand_s;
    let least = stations
        .iter()
        .filter(|s| s.demand_s > 0.0)
        .min_by(|a, b| capacity(a).total_cmp(&capacity(b)));
    least.is_some_and(|s| s.kind == Kind::Thread || (s.kind == Kind::Cpu && !s.pipe))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    use model::units::GIB;

    #[test]
    fn a_pool_that_keeps_up_syncs_at_a_fifth_of_dirty_data_max() {
        // 2.1 on 128 GiB: zfs_dirty_data_max 4 GiB (capped); 20% of it, 60% when throttled.
        let r = release("2.1");
        let kept = txg_bytes(&r, 128 * GIB, Fill::KeptUp);
        let held = txg_bytes(&r, 128 * GIB, Fill::Throttled);
        assert!((kept - 0.2 * (4 * GIB) as f64).abs() < 1.0, "{kept}");
        assert!((held - 0.6 * (4 * GIB) as f64).abs() < 1.0, "{held}");
        // 8 GiB: 10% of RAM, 819 MiB; a fifth of it.
        let small = txg_bytes(&r, 8 * GIB, Fill::KeptUp);
        assert!((small - 0.02 * (8 * GIB) as f64).abs() < 1.0, "{small}");
    }

    /// pajkastare's lone 4 KiB writer on the NVMe drive is bound by its own thread: each txg
    /// closes at the threshold. A disk, or the txg's writeback on the CPU, holding the rate
    /// lets dirty data pile up to the throttle.
    #[test]
    fn the_least_capacity_decides_who_bounds_the_writers() {
        let st = |kind, demand_s| Station::new("s", kind, String::new(), demand_s);
        let thread = st(Kind::Thread, 40e-6);
        let kernel = st(Kind::Cpu, 10e-6).servers(8);
        assert!(writers_bound(&[
            thread.clone(),
            st(Kind::Media, 30e-6),
            kernel.clone()
        ]));
        assert!(!writers_bound(&[
            thread.clone(),
            st(Kind::Media, 50e-6),
            kernel.clone()
        ]));
        // The kernel on the writer's path, in the cycle: 8 cores at 400 us a job, 50 us each.
        assert!(writers_bound(&[
            thread.clone(),
            st(Kind::Cpu, 400e-6).servers(8)
        ]));
        let writeback = st(Kind::Cpu, 400e-6).servers(8).in_cycle(false);
        assert!(!writers_bound(&[thread, writeback, st(Kind::Disk, 0.0)]));
    }

    #[test]
    fn zol_0_7_syncs_at_64_mib_and_the_old_write_limit_stands() {
        let kept = txg_bytes(&release("0.7"), 128 * GIB, Fill::KeptUp);
        assert_eq!(kept, 64.0 * 1024.0 * 1024.0);
        let old = release("solaris-2008");
        assert_eq!(
            txg_bytes(&old, 16 * GIB, Fill::KeptUp),
            txg_bytes(&old, 16 * GIB, Fill::Throttled)
        );
    }
}
