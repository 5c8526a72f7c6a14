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
//! - OpenSolaris 2008 and its descendants of the time: the preferred side is
//!   (offset >> vdev_mirror_shift) mod n with vdev_mirror_shift = 21 (vdev_mirror.c of the
//!   time): fixed runs of 2 MiB, whatever the number of streams.
//! - OpenZFS 2.x: the side with the least load, a side whose head is more than
//!   zfs_vdev_mirror_rotating_seek_offset (1 MiB) away paying zfs_vdev_mirror_rotating_seek_inc
//!   (5) queued I/Os (docs/zfs-internals.md §2). One stream stays on the near side until that side's
//!   queue is 5 I/Os deeper, so a run is taken as 5 records (an approximation: prefetch depth
//!   and completions blur it). Several streams each settle on the side whose head is near, so
//!   with s streams at most min(s, n) sides serve disjoint streams and pass nothing.

/// How a release alternates a mirror's sides under a sequential read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MirrorRuns {
    /// Fixed runs of this many bytes by offset.
    ByOffset(u64),
    /// Runs of this many records, and streams settle on their own side.
    ByLoad(u32),
}

/// The share of a stream's bytes whose time each of `n` sides spends (1 = the whole stream,
/// 1/n = its own share only), for records of `record` bytes at `rate` B/s, a skip of
/// `skip_s`, and `streams` concurrent streams.
pub fn passed_share(
    runs: MirrorRuns,
    n: u32,
    record: f64,
    rate: f64,
    skip_s: f64,
    streams: u32,
) -> f64 {
    let sides = f64::from(n.max(1));
    let run = match runs {
        MirrorRuns::ByOffset(bytes) => bytes as f64,
        MirrorRuns::ByLoad(records) => f64::from(records) * record,
    };
    let passed = (sides - 1.0).min(skip_s * rate / run);
    let alternating = (1.0 + passed) / sides;
    match runs {
        MirrorRuns::ByOffset(_) => alternating,
        MirrorRuns::ByLoad(_) => alternating.min(1.0 / f64::from(streams.clamp(1, n.max(1)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Track-to-track 0.5 ms plus half a turn at 7200 rpm.
    const SKIP_S: f64 = 0.5e-3 + 60.0 / 7200.0 / 2.0;

    #[test]
    fn short_runs_pass_under_the_head() {
        // OpenZFS, 128 KiB records: runs of 640 KiB take 3.3 ms at 200 MB/s, less than the
        // 4.67 ms skip, so each side passes the whole stream: one disk's rate.
        let one = passed_share(MirrorRuns::ByLoad(5), 2, 131072.0, 200e6, SKIP_S, 1);
        assert_eq!(one, 1.0);
        // Two streams settle on a side each: half each.
        let two = passed_share(MirrorRuns::ByLoad(5), 2, 131072.0, 200e6, SKIP_S, 2);
        assert_eq!(two, 0.5);
    }

    #[test]
    fn long_runs_are_skipped_by_a_short_seek() {
        // 2008: runs of 2 MiB at 72 MB/s take 29 ms; the other side's run is skipped in
        // 4.67 ms = 0.1603 of a run, so a side spends (1 + 0.1603) / 2 = 0.580 of the stream.
        let s = passed_share(MirrorRuns::ByOffset(2 << 20), 2, 131072.0, 72e6, SKIP_S, 1);
        assert!((s - 0.580_16).abs() < 1e-4, "{s}");
        // More streams do not change fixed runs.
        let four = passed_share(MirrorRuns::ByOffset(2 << 20), 2, 131072.0, 72e6, SKIP_S, 4);
        assert_eq!(s, four);
    }
}
