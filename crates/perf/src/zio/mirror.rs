//! What each side of a mirror of hard disks does while one or more sequential streams read
//! from it.
//!
//! A read goes to one side (docs/zfs-internals.md §2). The sides take turns in runs: each reads a run
//! of R bytes, then the next (n - 1) R bytes go to the other sides. Those bytes are still on
//! this side's platter: its head lets them pass under it (their transfer time), or, when that
//! takes longer, steps to a nearby track and waits for the target sector (track-to-track plus
//! half a revolution). So per n R bytes of stream a side spends
//! R / rate + min((n - 1) R / rate, skip): short runs make a mirror stream like one disk, runs
//! longer than a seek's worth of bytes approach n disks.
//!
//! How the sides take turns differs by release:
//! - OpenSolaris 2008 and its descendants of the time, ZoL to 0.6.1: the preferred side is
//!   (offset >> vdev_mirror_shift) mod n with vdev_mirror_shift = 21 (vdev_mirror.c of the
//!   time): fixed runs of 2 MiB, whatever the number of streams.
//! - ZoL 0.6.2-0.6.5 (commit 556011d, "Improve N-way mirror performance", 2013): the side
//!   with the fewest I/Os issued to its disk, ties (both sides at the async read limit, as a
//!   disk-bound stream keeps them) going to side (gethrtime / zfs_vdev_mirror_switch_us) mod
//!   n, zfs_vdev_mirror_switch_us = 10 ms (vdev_mirror_map_alloc): runs of what the stream
//!   issues in 10 ms, no locality, so streams do not settle on a side.
//! - FreeBSD 10.1+, ZoL 0.7+ and OpenZFS 2.x (vdev_mirror_load, vdev_mirror_child_select): the
//!   side with the least load, where load is the side's I/Os issued to the disk (at most
//!   zfs_vdev_async_read_max_active = 3 for prefetch) plus zfs_vdev_mirror_rotating_seek_inc
//!   (5) when the side's last issued offset is more than 1 MiB away (half of it within). A
//!   disk-bound stream keeps both sides' queues full, so the near side's 3 + 5 meets the far
//!   side's 3 + 5 and the tie goes by (offset >> 21) mod n, as before: runs of 2 MiB. Several
//!   streams each settle on the side whose head is near, so with s streams at most min(s, n)
//!   sides serve disjoint streams and pass nothing (docs/zfs-internals.md §2).

/// How a release alternates a mirror's sides under a sequential read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum MirrorRuns {
    /// Fixed runs of this many bytes by offset.
    ByOffset(u64),
    /// Runs of this many bytes where loads tie, and streams settle on their own side.
    ByLoad(u64),
    /// Runs of what the stream issues in this many seconds.
    TimeSlices(f64),
}

/// The share of a stream's bytes whose time each of `n` sides spends (1 = the whole stream,
/// 1/n = its own share only), at `rate` B/s, a skip of `skip_s`, and `streams` concurrent
/// streams.
pub(crate) fn passed_share(runs: MirrorRuns, n: u32, rate: f64, skip_s: f64, streams: u32) -> f64 {
    let sides = f64::from(n.max(1));
    let run = match runs {
        MirrorRuns::ByOffset(bytes) | MirrorRuns::ByLoad(bytes) => bytes as f64,
        MirrorRuns::TimeSlices(slice_s) => return time_slice_share(sides, skip_s / slice_s),
    };
    let passed = (sides - 1.0).min(skip_s * rate / run);
    let alternating = (1.0 + passed) / sides;
    match runs {
        MirrorRuns::ByLoad(_) => alternating.min(1.0 / f64::from(streams.clamp(1, n.max(1)))),
        _ => alternating,
    }
}

/// A side's share when runs are what the stream issues in a time slice: a disk-bound stream
/// issues rate / share bytes a second, so a run is slice x rate / share, and the one skip over
/// the other sides' runs costs skip x share / slice of a run (k = skip / slice). The share s solves
/// s = (1 + k s) / n: 1 / (n - k), or the whole stream once a skip outlasts the other sides'
/// slices (k >= n - 1).
fn time_slice_share(sides: f64, k: f64) -> f64 {
    if k >= sides - 1.0 {
        1.0
    } else {
        1.0 / (sides - k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Track-to-track 0.5 ms plus half a turn at 7200 rpm.
    const SKIP_S: f64 = 0.5e-3 + 60.0 / 7200.0 / 2.0;
    const RUN: u64 = 2 << 20;

    #[test]
    fn runs_of_2_mib_are_skipped_by_a_short_seek() {
        // 2 MiB at 200 MB/s take 10.49 ms; the other side's run is skipped in 4.67 ms =
        // 0.4449 of a run, so a side spends (1 + 0.4449) / 2 = 0.7224 of the stream: a
        // mirror-2 streams at 1.384 disks.
        for runs in [MirrorRuns::ByOffset(RUN), MirrorRuns::ByLoad(RUN)] {
            let s = passed_share(runs, 2, 200e6, SKIP_S, 1);
            assert!((s - 0.722_46).abs() < 1e-4, "{s}");
        }
        // 2008: at 72 MB/s a run takes 29 ms, so a side spends (1 + 0.1603) / 2 = 0.580.
        let s = passed_share(MirrorRuns::ByOffset(RUN), 2, 72e6, SKIP_S, 1);
        assert!((s - 0.580_16).abs() < 1e-4, "{s}");
    }

    #[test]
    fn a_side_never_spends_more_than_the_whole_stream() {
        // A skip longer than the other sides' runs: each side passes them all, as one disk.
        let s = passed_share(MirrorRuns::ByLoad(RUN), 3, 2e9, SKIP_S, 1);
        assert_eq!(s, 1.0);
    }

    #[test]
    fn ten_ms_slices_of_zol_0_6_5() {
        // k = 4.667 / 10 = 0.4667: a side spends 1 / (2 - 0.4667) = 0.6522 of the stream, a
        // mirror-2 streams at 1.533 disks, whatever the disks' rate or the streams.
        let slices = MirrorRuns::TimeSlices(0.010);
        let s = passed_share(slices, 2, 110e6, SKIP_S, 1);
        assert!((s - 0.652_17).abs() < 1e-4, "{s}");
        assert_eq!(s, passed_share(slices, 2, 250e6, SKIP_S, 4));
        // Three sides: 1 / (3 - 0.4667) = 0.3947.
        let s = passed_share(slices, 3, 110e6, SKIP_S, 1);
        assert!((s - 0.394_74).abs() < 1e-4, "{s}");
        // A skip longer than the others' slices: each side passes the whole stream.
        assert_eq!(
            passed_share(MirrorRuns::TimeSlices(2e-3), 2, 110e6, SKIP_S, 1),
            1.0
        );
    }

    #[test]
    fn streams_settle_on_their_own_side_by_load_only() {
        let two = passed_share(MirrorRuns::ByLoad(RUN), 2, 200e6, SKIP_S, 2);
        assert_eq!(two, 0.5);
        let fixed = passed_share(MirrorRuns::ByOffset(RUN), 2, 200e6, SKIP_S, 4);
        assert_eq!(
            fixed,
            passed_share(MirrorRuns::ByOffset(RUN), 2, 200e6, SKIP_S, 1)
        );
    }
}
