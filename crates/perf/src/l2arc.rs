//! The L2ARC (cache devices) under a workload (arc.c, the "Level 2 ARC" block comment and
//! l2arc_feed_thread): which share of reads it serves, and what its headers take from the ARC.
//! - The feed thread writes buffers near the tail of the ARC's lists, those about to be
//!   evicted, to the cache devices: the L2ARC holds what the ARC is losing. It skips buffers
//!   the devices already hold and, with `l2arc_noprefetch` (on by default), prefetched ones:
//!   arc_read_done takes a prefetched buffer's L2CACHE flag away (ZFS on Linux 0.6.5.4), and
//!   a prefetch read does not read from the cache devices, so a sequential pass finds nothing
//!   there. The application's own read of a prefetched buffer gives the flag back (arc_read's
//!   hit) and clears the prefetch mark (arc_access: "a referencing read"; 2.2.9 clears it
//!   likewise), so a pass the application reads feeds the devices as a write does; random
//!   reads find what it fed.
//! - Every block in the L2ARC keeps an L2-only header in the ARC: HDR_L2ONLY_SIZE, the
//!   arc_buf_hdr_t up to its L1 part (include/sys/arc_impl.h: dva 16, birth 8, type, level,
//!   sizes, hash link, flags and spa 32, the l2arc_buf_hdr_t 40 on LP64), 96 bytes. Those
//!   bytes come out of the ARC's data.
//! - The L2ARC stores blocks as the ARC does, compressed (OpenZFS 2.0+, compressed ARC), so a
//!   device holds its bytes times the compression ratio of data.
//! - The feed is a rate, not a copy of all the ARC loses (l2arc_feed_thread,
//!   l2arc_write_interval): each feed writes at most `l2arc_write_max` (8 MiB to OpenZFS 2.1,
//!   32 MiB in 2.2.9's arc.c) to one device in turn, and while a feed fills more than half its
//!   quota (`l2arc_feed_again`) the next comes `l2arc_feed_min_ms` (200 ms) later: at most
//!   five quotas a second for the whole pool, however many cache devices it has. A data set
//!   the run wrote faster than that passed the ARC's tail faster than the feed took it, and
//!   the L2ARC holds the feed's share of it. Which runs those were: bonnie++'s rewrite and
//!   then its read pass before its seeks (the rewrite's copy on write freed the blocks the
//!   write pass left, and arc_freed their L2ARC copies with them; the read pass feeds what
//!   the rewrite's feed left out), a sequential write of the data set (fio's layout) before
//!   any other random reads.
//!
//! A cache-device read is a random read on that device; `load` places it there.

use crate::release::Release;
use model::workload::{Access, CacheState, Durability, Engine, Target, Workload};
use model::System;

/// Bytes of ARC each block in the L2ARC costs: HDR_L2ONLY_SIZE on LP64 (arc_impl.h, 2.x).
pub(crate) const HEADER_BYTES: f64 = 96.0;

/// l2arc_write_interval's short interval, `l2arc_feed_min_ms`: five feeds a second.
const FEEDS_PER_S: f64 = 1000.0 / 200.0;

/// The leaves (indices into `system.disks`) that are cache devices: the last disks of the
/// file, after the vdevs' and the spares' (docs/system-file.md).
pub(crate) fn devices(system: &System) -> Vec<usize> {
    let n = system.disks.len();
    let cache = (system.pool.cache_devices as usize).min(n);
    (n - cache..n).collect()
}

/// The runs whose buffers passed the ARC's tail, oldest first, since the data set of `w`
/// was last written, where cache devices may hold part of it (random reads of a file on a
/// pool with cache devices): bonnie++'s rewrite and its read pass before its seeks, a
/// sequential write of the data set (fio's layout) otherwise. Empty where none is fed.
pub(crate) fn feeding_runs(system: &System, w: &Workload) -> Vec<Workload> {
    if system.pool.cache_devices == 0
        || w.access.is_sequential()
        || w.target != Target::Pool
        || w.data_bytes.is_none()
    {
        return Vec::new();
    }
    let run = |kind: &str, access, threads| Workload {
        kind: kind.into(),
        access,
        threads,
        queue_depth: 1,
        engine: Engine::Sync,
        durability: Durability::AtEnd,
        direct: false,
        cache: CacheState::Warm,
        ..w.clone()
    };
    match w.access {
        // bonnie++'s rewrite and read are its one process's loops (bonnie++.cpp TestFileOps).
        Access::Seeks { .. } => vec![
            run("bonnie++ rewrite", Access::Rewrite, 1),
            run("bonnie++ read", Access::SeqRead, 1),
        ],
        // fio lays out each job's file.
        _ => vec![run("layout", Access::SeqWrite, w.threads)],
    }
}

/// Share of a data set that the feed copied to the cache devices while runs passed it
/// through the ARC at `rates` bytes a second, oldest first: each run offers the feed the
/// bytes the devices do not hold yet, at its rate times their share, and the feed takes its
/// five quotas a second of them, all of them when they come slower than that.
pub(crate) fn fed_share(release: &Release, rates: &[f64]) -> f64 {
    if rates.is_empty() {
        return 1.0;
    }
    let feed = release.l2arc_write_max as f64 * FEEDS_PER_S;
    rates.iter().fold(0.0, |held, &rate| {
        let fresh = 1.0 - held;
        let offered = fresh * rate;
        let taken = if offered > feed { feed / offered } else { 1.0 };
        held + fresh * taken
    })
}

/// The ARC's and the L2ARC's shares of `w`'s block reads, for an ARC holding `arc_bytes` of
/// data and cache devices of `l2_bytes` raw, blocks of `record` bytes stored as `psize`, of
/// which the feed copied `fed` (`fed_share`) while the data set was written.
/// `None` where the L2ARC serves nothing (no device, a cold cache, O_DIRECT past the ARC, a
/// sequential pass): the ARC's own model holds.
pub(crate) fn shares(
    w: &Workload,
    release: &Release,
    (arc_bytes, l2_bytes): (f64, f64),
    (record, psize): (u64, u64),
    fed: f64,
) -> Option<(f64, f64)> {
    if l2_bytes <= 0.0
        || psize == 0
        || w.cache == CacheState::Cold
        || release.direct_reads(w)
        || w.access.is_sequential()
    {
        return None;
    }
    let data = w.total_bytes()? as f64;
    // Logical bytes the devices hold, and the blocks beyond the ARC that they take: the
    // feed's share of those, as many as fit.
    let l2_logical = l2_bytes * record as f64 / psize as f64;
    let beyond = (data - arc_bytes).max(0.0);
    let held = l2_logical.min(beyond * fed.clamp(0.0, 1.0));
    let headers = held / record as f64 * HEADER_BYTES;
    let arc = (arc_bytes - headers).max(0.0);
    let arc_hit = (arc / data).min(1.0);
    let l2_hit = (held.min(data - arc) / data).clamp(0.0, 1.0 - arc_hit);
    Some((arc_hit, l2_hit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::system::Tunables;

    const GIB: f64 = (1u64 << 30) as f64;

    fn release() -> Release {
        Release::of("2.2".parse().unwrap(), &Tunables::default())
    }

    #[test]
    fn random_reads_find_the_arc_then_the_l2arc_less_its_headers() {
        let w = Workload::parse("fio-randread:size=400G,bs=128k").unwrap();
        let rec = (128 << 10, 128 << 10);
        // 100 GiB of ARC, a 200 GiB cache device: 200 GiB of the 300 beyond the ARC are held,
        // 1.6 M blocks of 128 KiB whose headers take 1,638,400 x 96 B = 150 MiB of the ARC.
        let (arc, l2) = shares(&w, &release(), (100.0 * GIB, 200.0 * GIB), rec, 1.0).unwrap();
        let headers = 200.0 * 8192.0 * 96.0;
        assert!(
            (arc - (100.0 * GIB - headers) / (400.0 * GIB)).abs() < 1e-12,
            "{arc}"
        );
        assert!((l2 - 0.5).abs() < 1e-12, "{l2}");
        // 4K records: 32x the headers, 4.7 GiB of the ARC.
        let (arc4, _) = shares(
            &w,
            &release(),
            (100.0 * GIB, 200.0 * GIB),
            (4096, 4096),
            1.0,
        )
        .unwrap();
        assert!((arc4 - (100.0 * GIB - 200.0 * GIB / 4096.0 * 96.0) / (400.0 * GIB)).abs() < 1e-12);
        // Compressed 2:1, the device holds 400 GiB of the data: all beyond the ARC's.
        let (_, l2z) = shares(
            &w,
            &release(),
            (100.0 * GIB, 200.0 * GIB),
            (128 << 10, 64 << 10),
            1.0,
        )
        .unwrap();
        assert!((l2z - 0.75).abs() < 1e-3, "{l2z}");
        // A scan's own reads are served by the ARC's model; a cold cache finds nothing.
        let scan = Workload::parse("fio-read:size=400G,bs=1M").unwrap();
        assert!(shares(&scan, &release(), (100.0 * GIB, 200.0 * GIB), rec, 1.0).is_none());
        let cold = Workload::parse("fio-randread:size=400G,cache=cold").unwrap();
        assert!(shares(&cold, &release(), (100.0 * GIB, 200.0 * GIB), rec, 1.0).is_none());
    }

    #[test]
    fn the_feed_takes_five_quotas_a_second_of_what_the_run_wrote() {
        // ZoL 0.6.5: 8 MiB a feed, five feeds a second = 41.9 MB/s; a data set written at
        // 83.9 MB/s is half fed, one written at 20 MB/s all of it. 2.2.9: 32 MiB a feed.
        let r065 = Release::of("zol-0.6.5".parse().unwrap(), &Tunables::default());
        let feed = 5.0 * 8.0 * 1048576.0;
        assert!((fed_share(&r065, &[2.0 * feed]) - 0.5).abs() < 1e-12);
        assert_eq!(fed_share(&r065, &[20e6]), 1.0);
        assert!((fed_share(&release(), &[8.0 * feed]) - 0.5).abs() < 1e-12);
        // A read pass after a write fed half: it offers the other half at its rate, 4x the
        // feed's, so 2x the feed's of bytes not held, and the feed takes half of those.
        let both = fed_share(&r065, &[2.0 * feed, 4.0 * feed]);
        assert!((both - 0.75).abs() < 1e-12, "{both}");
        // phaus 2.4's measured passes, 77.7 MB/s rewritten then 222.5 MB/s read: the
        // rewrite's feed takes 54%, the read pass 41% of the rest, 73% in all.
        let phaus = fed_share(&r065, &[77.749e6, 222.516e6]);
        let rw = feed / 77.749e6;
        let want = rw + (1.0 - rw) * feed / ((1.0 - rw) * 222.516e6);
        assert!(
            (phaus - want).abs() < 1e-12 && (phaus - 0.728).abs() < 1e-3,
            "{phaus}"
        );
        // No run fed: the share is not asked for.
        assert_eq!(fed_share(&r065, &[]), 1.0);
        // 40 GiB of random reads, 4 GiB of ARC, a 200 GiB device fed half the data: the
        // device holds half of the 36 GiB beyond the ARC, 18 GiB, whose headers take
        // 147,456 x 96 B from the ARC.
        let w = Workload::parse("fio-randread:size=40G,bs=128k").unwrap();
        let rec = (128 << 10, 128 << 10);
        let (arc, l2) = shares(&w, &r065, (4.0 * GIB, 200.0 * GIB), rec, 0.5).unwrap();
        assert!((l2 - 18.0 / 40.0).abs() < 1e-12, "{l2}");
        let headers = 18.0 * 8192.0 * 96.0;
        assert!(
            (arc - (4.0 * GIB - headers) / (40.0 * GIB)).abs() < 1e-12,
            "{arc}"
        );
    }

    #[test]
    fn bonnie_seeks_find_what_its_rewrite_and_read_fed_fio_what_its_layout_wrote() {
        let mut s = crate::testkit::system("mirror-2", 2, 200.0, crate::testkit::fast_link());
        let seeks = Workload::parse("bonnie++ -s 4096 -f @seeks").unwrap();
        assert!(
            feeding_runs(&s, &seeks).is_empty(),
            "no cache device, no feed"
        );
        s.pool.cache_devices = 1;
        let runs = feeding_runs(&s, &seeks);
        let shape: Vec<_> = runs
            .iter()
            .map(|r| (r.access, r.block_size, r.threads))
            .collect();
        assert_eq!(
            shape,
            [(Access::Rewrite, 8192, 1), (Access::SeqRead, 8192, 1)]
        );
        let fio = Workload::parse("fio-randread:size=10G,bs=4k,qd=32,threads=4").unwrap();
        let runs = feeding_runs(&s, &fio);
        assert_eq!(runs.len(), 1);
        assert_eq!(
            (runs[0].access, runs[0].queue_depth, runs[0].threads),
            (Access::SeqWrite, 1, 4)
        );
        let scan = Workload::parse("fio-read:size=10G").unwrap();
        assert!(feeding_runs(&s, &scan).is_empty());
    }
}
