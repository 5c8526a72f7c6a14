//! The ARC as a cache under a workload (docs/zfs-internals.md §2): what share of reads it
//! serves, by access pattern.
//! - A sequential pass over a data set larger than the ARC finds almost nothing: each block
//!   was evicted before the pass came back to it (the ARC's lists evict the oldest first, and
//!   a scan is all first accesses), but for the share of the ARC a repeated pass keeps in the
//!   MFU list (a fitted constant, 0 for a plain LRU).
//! - A pass over a data set the run just wrote or read, and that fits, finds everything.
//! - A rewrite is such a pass: it reads each record before it dirties it, and what the run
//!   wrote last is the end of the file, which the pass's own reads and writes evict before
//!   it gets there.
//! - Random reads over a data set find the ARC's share of it: the ARC holds C of its D bytes
//!   and a uniform request hits with probability C / D.
//! - Cold data (a fresh import) finds nothing; O_DIRECT on OpenZFS 2.3+ bypasses the ARC.
//!
//! C is the ARC's maximum for the release and RAM (or the tunable) times the share of it that
//! holds a file's data in steady state (a fitted constant, constants.rs).

use crate::constants::Constants;
use crate::release::Release;
use model::workload::{CacheState, Workload};
use model::System;

/// Bytes of file data the ARC holds in steady state.
pub(crate) fn data_capacity(system: &System, release: &Release, constants: &Constants) -> f64 {
    release.arc_max_bytes(system.host.ram_bytes) * constants.arc_data_share()
}

/// Share of the workload's block reads the ARC serves, for an ARC holding `capacity` bytes of
/// which a repeated scan of a larger file finds `scan_retention`.
pub(crate) fn hit_ratio(
    w: &Workload,
    release: &Release,
    capacity: f64,
    scan_retention: f64,
) -> f64 {
    if w.cache == CacheState::Cold || release.direct_reads(w) {
        return 0.0;
    }
    let Some(data) = w.total_bytes() else {
        return 0.0;
    };
    let fits = capacity / data as f64;
    if w.access.is_sequential() {
        if fits >= 1.0 {
            1.0
        } else {
            scan_retention * fits
        }
    } else {
        fits.min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::system::Tunables;

    fn release() -> Release {
        Release::of("2.2".parse().unwrap(), &Tunables::default())
    }

    #[test]
    fn scans_find_all_or_nothing_random_reads_the_share() {
        let gib = (1u64 << 30) as f64;
        let r = release();
        let read = |spec: &str| Workload::parse(spec).unwrap();
        assert_eq!(
            hit_ratio(&read("dd-read:size=8G"), &r, 10.0 * gib, 0.0),
            1.0
        );
        assert_eq!(
            hit_ratio(&read("dd-read:size=16G"), &r, 10.0 * gib, 0.0),
            0.0
        );
        // A repeated pass keeping a third of the ARC in its MFU list: 10/16 x 1/3.
        let kept = hit_ratio(&read("dd-read:size=16G"), &r, 10.0 * gib, 1.0 / 3.0);
        assert!((kept - 10.0 / 48.0).abs() < 1e-12, "{kept}");
        assert_eq!(hit_ratio(&read("dd-read"), &r, 10.0 * gib, 0.0), 0.0);
        // bonnie++'s rewrite pass: all of an 8 GiB file, none of a 16 GiB one.
        let rewrite = |s: &str| Workload::parse(&format!("bonnie++ -s {s} -f @rewrite")).unwrap();
        assert_eq!(hit_ratio(&rewrite("8192"), &r, 10.0 * gib, 0.0), 1.0);
        assert_eq!(hit_ratio(&rewrite("16384"), &r, 10.0 * gib, 0.0), 0.0);
        let random = read("fio-randread:size=40G");
        assert!((hit_ratio(&random, &r, 10.0 * gib, 0.0) - 0.25).abs() < 1e-12);
        // Four jobs of 10 GiB each: 40 GiB in all.
        let jobs = read("fio-randread:size=10G,threads=4");
        assert!((hit_ratio(&jobs, &r, 10.0 * gib, 0.0) - 0.25).abs() < 1e-12);
        assert_eq!(
            hit_ratio(
                &read("fio-randread:size=1G,cache=cold"),
                &r,
                10.0 * gib,
                0.0
            ),
            0.0
        );
        // O_DIRECT: buffered before 2.3, past the ARC from it.
        let direct = read("fio-randread:size=1G,direct=on");
        assert_eq!(hit_ratio(&direct, &r, 10.0 * gib, 0.0), 1.0);
        let r23 = Release::of("2.3".parse().unwrap(), &Tunables::default());
        assert_eq!(hit_ratio(&direct, &r23, 10.0 * gib, 0.0), 0.0);
    }
}
