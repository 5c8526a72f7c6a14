//! The L2ARC (cache devices) under a workload (arc.c, the "Level 2 ARC" block comment and
//! l2arc_feed_thread): which share of reads it serves, and what its headers take from the ARC.
//! - The feed thread writes buffers near the tail of the ARC's lists, those about to be
//!   evicted, to the cache devices: the L2ARC holds what the ARC is losing. It skips
//!   prefetched buffers (`l2arc_noprefetch`, on by default: l2arc_write_eligible), so a
//!   sequential scan, whose blocks all come through prefetch (dmu_zfetch), finds nothing
//!   there; random reads find it.
//! - Every block in the L2ARC keeps an L2-only header in the ARC: HDR_L2ONLY_SIZE, the
//!   arc_buf_hdr_t up to its L1 part (include/sys/arc_impl.h: dva 16, birth 8, type, level,
//!   sizes, hash link, flags and spa 32, the l2arc_buf_hdr_t 40 on LP64), 96 bytes. Those
//!   bytes come out of the ARC's data.
//! - The L2ARC stores blocks as the ARC does, compressed (OpenZFS 2.0+, compressed ARC), so a
//!   device holds its bytes times the compression ratio of data.
//! - Hits take a warm L2ARC: the feed writes at most `l2arc_write_max` (32 MiB) per device each
//!   `l2arc_feed_secs` (1 s), plus `l2arc_write_boost` (32 MiB) until the ARC is warm, and every
//!   200 ms (`l2arc_feed_min_ms`) while each write fills more than half its quota: filling a
//!   cache device of N GiB takes N x 32 s or more. A run shorter than that finds less: not
//!   modelled (the prediction says so).
//!
//! A cache-device read is a random read on that device; `load` places it there.

use crate::release::Release;
use model::workload::{CacheState, Workload};
use model::System;

/// Bytes of ARC each block in the L2ARC costs: HDR_L2ONLY_SIZE on LP64 (arc_impl.h, 2.x).
pub(crate) const HEADER_BYTES: f64 = 96.0;

/// The leaves (indices into `system.disks`) that are cache devices: the last disks of the
/// file, after the vdevs' and the spares' (docs/system-file.md).
pub(crate) fn devices(system: &System) -> Vec<usize> {
    let n = system.disks.len();
    let cache = (system.pool.cache_devices as usize).min(n);
    (n - cache..n).collect()
}

/// The ARC's and the L2ARC's shares of `w`'s block reads, for an ARC holding `arc_bytes` of
/// data and cache devices of `l2_bytes` raw, blocks of `record` bytes stored as `psize`.
/// `None` where the L2ARC serves nothing (no device, a cold cache, O_DIRECT past the ARC, a
/// sequential pass): the ARC's own model holds.
pub(crate) fn shares(
    w: &Workload,
    release: &Release,
    arc_bytes: f64,
    l2_bytes: f64,
    (record, psize): (u64, u64),
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
    // Logical bytes the devices hold, and the blocks beyond the ARC that they take.
    let l2_logical = l2_bytes * record as f64 / psize as f64;
    let beyond = (data - arc_bytes).max(0.0);
    let held = l2_logical.min(beyond);
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
        let (arc, l2) = shares(&w, &release(), 100.0 * GIB, 200.0 * GIB, rec).unwrap();
        let headers = 200.0 * 8192.0 * 96.0;
        assert!(
            (arc - (100.0 * GIB - headers) / (400.0 * GIB)).abs() < 1e-12,
            "{arc}"
        );
        assert!((l2 - 0.5).abs() < 1e-12, "{l2}");
        // 4K records: 32x the headers, 4.7 GiB of the ARC.
        let (arc4, _) = shares(&w, &release(), 100.0 * GIB, 200.0 * GIB, (4096, 4096)).unwrap();
        assert!((arc4 - (100.0 * GIB - 200.0 * GIB / 4096.0 * 96.0) / (400.0 * GIB)).abs() < 1e-12);
        // Compressed 2:1, the device holds 400 GiB of the data: all beyond the ARC's.
        let (_, l2z) = shares(
            &w,
            &release(),
            100.0 * GIB,
            200.0 * GIB,
            (128 << 10, 64 << 10),
        )
        .unwrap();
        assert!((l2z - 0.75).abs() < 1e-3, "{l2z}");
        // A scan is prefetched and not fed (l2arc_noprefetch); a cold cache finds nothing.
        let scan = Workload::parse("fio-read:size=400G,bs=1M").unwrap();
        assert!(shares(&scan, &release(), 100.0 * GIB, 200.0 * GIB, rec).is_none());
        let cold = Workload::parse("fio-randread:size=400G,cache=cold").unwrap();
        assert!(shares(&cold, &release(), 100.0 * GIB, 200.0 * GIB, rec).is_none());
    }
}
