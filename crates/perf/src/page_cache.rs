//! Linux's page cache under a buffered read of a block device (`dd if=/dev/nvme0n1` without
//! `iflag=direct`, fio `direct=0` on a device node): blkdev_read_iter -> filemap_read copies
//! each 4 KiB page from the block device's page cache to the caller, and a page not there is
//! first allocated, inserted and read by readahead (mm/readahead.c) on the reader's own
//! thread, which also takes the read's completion. The device itself streams: asynchronous
//! readahead (page_cache_async_ra) submits the next window when the reader reaches the
//! marked page of the current one, so the device has a window queued while the reader copies.

use crate::cpu::{self, COPY_BYTE, SYSCALL};
use model::release::Platform;
use model::workload::{Access, CacheState, Tool, Workload};
use model::System;

/// Whether a read of `w`'s device node goes through the page cache: Linux's (zfs-fuse's
/// too) without O_DIRECT. FreeBSD's disk devices have no buffer cache (GEOM passes each read
/// to the driver) and Solaris's benchmarks read the raw character nodes (`/dev/rdsk`).
fn buffered(w: &Workload, platform: Platform) -> bool {
    !w.direct && matches!(platform, Platform::Linux | Platform::Fuse)
}

/// Bytes of a page of the page cache (x86-64, arm64's default).
const PAGE: f64 = 4096.0;

/// Reference cycles the reader's thread spends per page a buffered read misses, beyond its
/// copy: allocating the page, inserting it in the mapping and the LRU, building and
/// completing its read (and reclaiming another when memory is full). From the reader's own
/// system time on a buffered read of a raw SSD: `dd if=/dev/sda of=/dev/null bs=1M
/// count=20480` on Linux 2.6.38.8, a Dell Latitude E6400 with a Samsung 830, 21.65 s of
/// system time for 20 GiB (Herbert Poetzl, "Bad SSD performance with recent kernels", LKML
/// 2012-01-27, https://lore.kernel.org/lkml/20120129055917.GB8513@localhost/T/): 4.13 us a
/// page. The E6400's processor is not named; its processors are Penryn Core 2 Duos of 2008
/// at 2.26-2.8 GHz: 2.53 GHz, the middle, an APPROXIMATION (+-10%). Less the page's copy and
/// its 1/256 share of a call: 5,985 reference cycles.
fn miss_page_cycles() -> f64 {
    const SYS_S_PER_PAGE: f64 = 21.65 / (20_480.0 * 256.0);
    const GHZ: f64 = 2.53;
    SYS_S_PER_PAGE * GHZ * 1e9 / cpu::generation_factor(2008) - PAGE * COPY_BYTE - SYSCALL / 256.0
}

/// A buffered read call through the page cache: whether the cache holds its span, the
/// reference cycles the call costs its thread, the calls it keeps in flight.
pub(crate) struct Reader {
    pub cached: bool,
    pub call_cycles: f64,
    pub in_flight: u32,
}

/// The page cache's part in a read of `w`'s device node on `platform`; `None` where the read
/// does not go through it (O_DIRECT, FreeBSD, Solaris).
pub(crate) fn reader(system: &System, w: &Workload, platform: Platform) -> Option<Reader> {
    if !buffered(w, platform) {
        return None;
    }
    let cached = holds(system, w);
    Some(Reader {
        cached,
        call_cycles: read_call_cycles(w, cached),
        in_flight: in_flight(w, cached),
    })
}

/// Bytes of readahead ahead of a sequential reader: the block device's `read_ahead_kb`, 128
/// KiB by default (VM_READAHEAD_PAGES, include/linux/mm.h).
const READAHEAD_BYTES: u64 = 128 << 10;

/// Calls of a buffered read `w` in flight when it misses: readahead keeps a window ahead of
/// a sequential reader (the next one submitted when the reader reaches the current one), so
/// the device reads the calls after the one being copied: a window's calls, at least two; a
/// random read keeps the caller's own depth.
fn in_flight(w: &Workload, cached: bool) -> u32 {
    let depth = w.outstanding().max(1);
    if cached || !matches!(w.access, Access::SeqRead) {
        return depth;
    }
    let window = READAHEAD_BYTES.div_ceil(w.block_size.max(1)).max(2);
    depth.max(u32::try_from(window).unwrap_or(u32::MAX))
}

/// Whether the page cache holds what a buffered read `w` of the raw device reads: the
/// workload says the cache is warm (an earlier run read the same span: `cache=warm`; a device
/// node's default is cold, nothing having read it) and the span is smaller than the host's
/// memory.
/// Reads only: a mix's writes dirty the cache and are not modelled here.
fn holds(system: &System, w: &Workload) -> bool {
    let reads_only = matches!(w.access, Access::SeqRead | Access::Random { read_pct: 100 });
    let span = w.total_bytes().map_or(f64::INFINITY, |b| b as f64);
    reads_only && w.cache == CacheState::Warm && span < system.host.ram_bytes as f64
}

/// Reference cycles on the reader's thread for one buffered read call of `w.block_size`
/// bytes of a block device: the call, its copy page by page, each missed page's
/// `miss_page_cycles`; `dd` also writes each block to its output (`/dev/null`: a call that
/// does no I/O).
fn read_call_cycles(w: &Workload, hit: bool) -> f64 {
    let bs = w.block_size as f64;
    let pages = (bs / PAGE).ceil();
    let calls = if w.tool == Tool::Dd { 2.0 } else { 1.0 };
    let miss = if hit { 0.0 } else { pages * miss_page_cycles() };
    calls * SYSCALL + bs * COPY_BYTE + miss
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{fast_link, system};

    fn dd(spec: &str) -> Workload {
        Workload::parse(spec).unwrap()
    }

    #[test]
    fn a_missed_page_costs_what_the_2012_reader_spent_less_its_copy() {
        // 21.65 s / 5,242,880 pages = 4.1294 us; x 2.53 GHz / 1.3 = 8,036.6 reference
        // cycles, less 2,048 for the copy and 3.9 for the call's share.
        assert!(
            (miss_page_cycles() - 5_984.7).abs() < 0.5,
            "{}",
            miss_page_cycles()
        );
    }

    #[test]
    fn a_ryzen_5600g_reads_a_cold_device_near_2000_mib_s_and_a_cached_one_near_5000() {
        // tn-bench's disk read, `dd bs=4K` of an Optane 905P on a Ryzen 5 5600G (3.9 GHz,
        // Zen 3): 2 calls (1,000 each), the 4 KiB copy (2,048) and the miss (5,985):
        // 10,033 reference cycles, 1.93 us at 0.75 / 3.9 GHz: 2,025 MiB/s, which the
        // README's cold runs measured at 1,735-2,115 MiB/s (v1.00-v1.06). Cached (v1.00's
        // third and fourth runs, 3,955-3,976 MiB/s measured): 4,048 cycles, 5,018 MiB/s.
        let w = dd("dd if=/dev/nvme0n1 of=/dev/null bs=4K count=2621440");
        let seconds = |hit| read_call_cycles(&w, hit) * cpu::generation_factor(2021) / 3.9e9;
        let mib_s = |hit| 4096.0 / seconds(hit) / 1_048_576.0;
        assert!((mib_s(false) - 2_024.7).abs() < 1.0, "{}", mib_s(false));
        assert!((mib_s(true) - 5_018.3).abs() < 1.0, "{}", mib_s(true));
        // fio reads without dd's write to its output; O_DIRECT takes no page cache, nor do
        // FreeBSD's and Solaris's device nodes.
        let fio = dd("fio --name=r --rw=read --bs=4k --filename=/dev/nvme0n1");
        assert!((read_call_cycles(&fio, true) - 3_048.0).abs() < 1e-9);
        let direct = dd("dd if=/dev/nvme0n1 of=/dev/null bs=4K count=10 iflag=direct");
        assert!(buffered(&w, Platform::Linux) && buffered(&fio, Platform::Fuse));
        assert!(!buffered(&direct, Platform::Linux));
        assert!(!buffered(&w, Platform::FreeBsd) && !buffered(&w, Platform::Solaris));
    }

    #[test]
    fn the_cache_holds_a_warm_read_smaller_than_memory() {
        // 30.75 GiB of RAM (tn-bench's 5600G): 10 GiB read again hits, 30.75 GiB does not,
        // and a device node is cold unless the workload says otherwise.
        let mut s = system("stripe-1", 1, 100.0, fast_link());
        s.host.ram_bytes = 31_488 << 20;
        let warm = |count: u64| {
            dd(&format!(
                "cache=warm dd if=/dev/nvme0n1 of=/dev/null bs=4K count={count}"
            ))
        };
        assert!(holds(&s, &warm(2_621_440)));
        assert!(!holds(&s, &warm(8_060_928)));
        assert!(!holds(
            &s,
            &dd("dd if=/dev/nvme0n1 of=/dev/null bs=4K count=2621440")
        ));
    }

    #[test]
    fn readahead_keeps_128_kib_of_a_cold_stream_in_flight() {
        let cold = dd("dd if=/dev/nvme0n1 of=/dev/null bs=4K count=100");
        assert_eq!(in_flight(&cold, false), 32);
        assert_eq!(in_flight(&cold, true), 1);
        // A call of 128 KiB or more: the one being copied and the window read ahead of it.
        let big = dd("dd if=/dev/nvme0n1 of=/dev/null bs=1M count=100");
        assert_eq!(in_flight(&big, false), 2);
        let random = dd("fio --name=r --rw=randread --bs=4k --filename=/dev/nvme0n1");
        assert_eq!(in_flight(&random, false), 1);
    }
}
