//! The ARC's target size (arc_c), which sets the dbuf cache's (dbuf.c
//! dbuf_cache_target_bytes: arc_target_bytes() >> dbuf_cache_shift).
//!
//! From OpenZFS 2.0 the target starts at arc_c_min, 1/32 of memory and at least 32 MiB
//! (arc_init, arc_set_limits; commit 17ca3018, "Set initial arc_c to arc_c_min instead of
//! arc_c_max"), and grows only while the ARC is full up to it (arc_adapt, arc_get_data_impl):
//! a benchmark's ARC reaches what its data set fills, not the maximum. Before 2.0 it started at
//! arc_c_max, shrinking only under memory pressure. What ran before the workload is not known:
//! the ARC is taken to have grown by the workload's data set alone.

use crate::release::Release;

/// arc_c_min's floor, 2 << SPA_MAXBLOCKSHIFT (arc.c arc_set_limits): 32 MiB.
const ARC_MIN_FLOOR: u64 = 32 << 20;

/// The ARC's target on `release` with `ram` bytes of memory, for a workload over `data` bytes
/// (unknown: the maximum).
pub(crate) fn target_bytes(release: &Release, ram: u64, data: Option<u64>) -> f64 {
    let max = release.arc_max_bytes(ram);
    match data {
        Some(data) if release.zfs.openzfs_line() >= (2, 0) => {
            let min = (ram / 32).max(ARC_MIN_FLOOR) as f64;
            (data as f64).clamp(min.min(max), max)
        }
        _ => max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    use model::units::GIB;

    #[test]
    fn from_2_0_the_target_grows_from_a_32nd_of_memory_to_what_the_data_fills() {
        let r = release("2.1");
        // 128 GiB: arc_c_min 4 GiB; a 4 GiB file keeps it there, 16 GiB grows it, 100 GiB
        // stops at the maximum (half of memory on 2.1).
        assert_eq!(target_bytes(&r, 128 * GIB, Some(GIB)), (4 * GIB) as f64);
        assert_eq!(
            target_bytes(&r, 128 * GIB, Some(16 * GIB)),
            (16 * GIB) as f64
        );
        assert_eq!(
            target_bytes(&r, 128 * GIB, Some(100 * GIB)),
            (64 * GIB) as f64
        );
        assert_eq!(target_bytes(&r, 128 * GIB, None), (64 * GIB) as f64);
        // 512 MiB of memory: the 32 MiB floor.
        assert_eq!(target_bytes(&r, GIB / 2, Some(1 << 20)), (32 << 20) as f64);
    }

    #[test]
    fn before_2_0_the_target_starts_at_the_maximum() {
        let r = release("0.8");
        assert_eq!(
            target_bytes(&r, 128 * GIB, Some(GIB)),
            r.arc_max_bytes(128 * GIB)
        );
    }
}
