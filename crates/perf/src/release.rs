//! How each ZFS release issues I/O and spends CPU where releases differ (docs/zfs-internals.md
//! §2, §3): the I/O scheduler's depths and aggregation, the prefetcher's reach (`zfetch`), the write
//! throttle, the ARC's default size, the default checksum and compression, whether checksums
//! and parity use SIMD, and whether O_DIRECT bypasses the ARC. Keyed on the OpenZFS line a
//! release's code follows (`ZfsRelease::openzfs_line`) and on its kernel.

use crate::zfetch::Prefetch;
use crate::zio::mirror::MirrorRuns;
use model::release::Platform;
use model::system::Tunables;
use model::units::{GIB, KIB, MIB};
use model::{Workload, ZfsRelease};

/// The behaviour of one release, with the administrator's tunables applied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Release {
    pub zfs: ZfsRelease,
    pub era: Era,
    /// Largest aggregated I/O on rotating and on solid-state leaves, bytes.
    pub aggregation_hdd: u64,
    pub aggregation_ssd: u64,
    /// I/Os each leaf keeps active for a stream's reads (prefetch is async), for the txg's
    /// writes, for reads an application waits on (which a disk may reorder) and for the
    /// ZIL's writes.
    pub async_read_active: u32,
    pub async_write_active: u32,
    pub sync_read_active: u32,
    pub sync_write_active: u32,
    /// How far a sequential reader is prefetched ahead.
    pub prefetch: Prefetch,
    /// A read that waits on a prefetch still in the vdev queue raises it to the sync class
    /// (arc_read's zio_change_priority, "Support re-prioritizing asynchronous prefetches",
    /// ZoL 0.8.0); before, it waits in the async read class with prefetch's other reads.
    pub waited_prefetch_raised: bool,
    /// How a mirror's sides take turns under a sequential read.
    pub mirror_runs: MirrorRuns,
    /// The write throttle: how much dirty data the application may run ahead of the disks.
    pub throttle: Throttle,
    /// Largest ARC: max(share x RAM, RAM - `arc_all_but`), or the tunable.
    pub arc_share: f64,
    pub arc_all_but: u64,
    pub arc_max_tunable: Option<u64>,
    /// fletcher4 and raidz parity in SIMD where the CPU has it (ZoL 0.7+, FreeBSD 12+).
    pub simd_checksums: bool,
    pub simd_parity: bool,
    /// The checksum `checksum=on` means: fletcher4, or fletcher2 before 2009 (Solaris snv_114).
    pub fletcher4_default: bool,
    /// `compression` left at its default compresses with lz4 (OpenZFS 2.2+).
    pub lz4_default: bool,
    /// O_DIRECT bypasses the ARC (OpenZFS 2.3+ on Linux; FreeBSD ships it switched off,
    /// zfs_dio_enabled = 0); before, it is accepted and buffered.
    pub direct_io: bool,
    /// A write committed at once goes into the log block unless it covers at least half its
    /// record (zil_write_state, OpenZFS 2.4+); before, size alone decided.
    pub zil_half_record: bool,
    /// The kernel the application's system calls enter.
    pub platform: Platform,
    /// Bytes the L2ARC's feed writes at most each time (l2arc.rs).
    pub l2arc_write_max: u64,
}

/// The era of a release's data path: what its system calls and zio pipeline cost
/// (constants.rs, cpu.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    /// Solaris and OpenSolaris 2006-2010, zfs-fuse, FreeBSD 7-8.
    Early,
    /// The illumos code of 2010-2016: FreeBSD 9-11, illumos to 2016, ZFS on Linux 0.6.
    Middle,
    /// ZFS on Linux 0.7+, OpenZFS 2, FreeBSD 12+, illumos from 2017: ABD scatter lists, the
    /// 2015 prefetcher, SIMD checksums and parity.
    Modern,
}

impl Era {
    /// The era of `zfs`'s data path.
    pub fn of(zfs: ZfsRelease) -> Era {
        match zfs {
            ZfsRelease::Solaris { .. } | ZfsRelease::ZfsFuse => Era::Early,
            ZfsRelease::FreeBsd { major, .. } if major <= 8 => Era::Early,
            _ if zfs.at_least(0, 7) => Era::Modern,
            _ => Era::Middle,
        }
    }
}

/// The write throttle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Throttle {
    /// The 2013 throttle (illumos 4045; ZoL 0.6.3, FreeBSD 10): writers run at full speed
    /// until dirty data passes `delay_share` of zfs_dirty_data_max = min(`share` x RAM, `max`).
    Dirty {
        share: f64,
        max: u64,
        delay_share: f64,
    },
    /// The throttle before it: a txg holds at most about `share` of RAM of writes
    /// (zfs_write_limit_shift 3: 1/8), beyond which writers wait for the txg to sync.
    WriteLimit { share: f64 },
}

/// How a mirror picks the side a read goes to. vdev_mirror.c: the least loaded side, a
/// distant head costing zfs_vdev_mirror_rotating_seek_inc = 5 issued I/Os, ties by
/// offset >> 21, in FreeBSD from 10.1 and in ZoL from 0.7; in ZoL 0.6.2-0.6.5 the side with
/// the fewest issued I/Os, ties by 10 ms time slices (zfs_vdev_mirror_switch_us, commit
/// 556011d); before, fixed 2 MiB runs by offset (zio/mirror.rs).
fn mirror_runs(zfs: ZfsRelease, line: (u8, u8)) -> MirrorRuns {
    let by_load = line >= (0, 7) || matches!(zfs, ZfsRelease::FreeBsd { major, .. } if major >= 10);
    let by_time = matches!(zfs, ZfsRelease::OpenZfs { major: 0, minor: 6, patch } if patch >= 2);
    if by_load {
        MirrorRuns::ByLoad(2 * MIB)
    } else if by_time {
        MirrorRuns::TimeSlices(MIRROR_SWITCH_S)
    } else {
        MirrorRuns::ByOffset(2 * MIB)
    }
}

/// zfs_vdev_mirror_switch_us of ZoL 0.6.2-0.6.5 (vdev_mirror.c): 10 ms, the Linux
/// elevator's plug time.
const MIRROR_SWITCH_S: f64 = 10e-3;

/// What holds writers back: the dirty-data throttle from 0.6, the write limit before.
fn throttle(line: (u8, u8), tunables: &Tunables) -> Throttle {
    if line >= (0, 6) {
        // dsl_pool.c: zfs_dirty_data_max_percent 10, capped at 4 GiB (zfs_dirty_data_max_max,
        // arc.c); zfs_delay_min_dirty_percent 60.
        Throttle::Dirty {
            share: 0.10,
            max: tunables.dirty_data_max.unwrap_or(4 * GIB),
            delay_share: 0.60,
        }
    } else {
        Throttle::WriteLimit { share: 1.0 / 8.0 }
    }
}

/// The ARC's default ceiling as a share of RAM and the RAM it leaves at least: Linux 2.3+
/// max(5/8 RAM, RAM - 1 GiB) (arc_os.c arc_default_max), 1/2 before; Solaris and illumos
/// max(3/4 RAM, RAM - 1 GiB), FreeBSD max(5/8 RAM, RAM - 1 GiB) (arc.c arc_init of their
/// trees).
fn arc_max(zfs: ZfsRelease, line: (u8, u8)) -> (f64, u64) {
    match zfs.platform() {
        Platform::Linux if line >= (2, 3) => (5.0 / 8.0, GIB),
        Platform::Linux | Platform::Fuse => (0.5, u64::MAX),
        Platform::Solaris => (0.75, GIB),
        Platform::FreeBsd => (5.0 / 8.0, GIB),
    }
}

impl Release {
    /// The behaviour of `zfs`, with `tunables` applied.
    pub(crate) fn of(zfs: ZfsRelease, tunables: &Tunables) -> Release {
        let line = zfs.openzfs_line();
        let modern_queue = line >= (0, 6);
        // vdev_queue.c: 1 MiB aggregation on rotating leaves from 0.8 (128 KiB non-rotating);
        // SPA_OLD_MAXBLOCKSIZE = 128 KiB before (and in the Solaris era, SPA_MAXBLOCKSIZE).
        let aggregation_hdd =
            tunables
                .aggregation_limit
                .unwrap_or(if line >= (0, 8) { MIB } else { 128 * KIB });
        // The 2013 I/O scheduler: sync read 10, async read 3, async write 10, sync write 10
        // active per leaf; before it one queue of zfs_vdev_max_pending = 35 (Solaris; FreeBSD 9
        // lowered it to 10).
        let pending = tunables.vdev_max_pending.unwrap_or(match zfs {
            ZfsRelease::FreeBsd { .. } => 10,
            _ => 35,
        });
        let (async_read, async_write, sync_read, sync_write) = if modern_queue {
            (3, 10, 10, 10)
        } else {
            (pending, pending, pending, pending)
        };
        let mirror_runs = mirror_runs(zfs, line);
        let throttle = throttle(line, tunables);
        let (arc_share, arc_all_but) = arc_max(zfs, line);
        let simd = line >= (0, 7);
        Release {
            zfs,
            era: Era::of(zfs),
            aggregation_hdd,
            aggregation_ssd: tunables.aggregation_limit.unwrap_or(128 * KIB),
            async_read_active: tunables.async_read_max_active.unwrap_or(async_read),
            async_write_active: tunables.async_write_max_active.unwrap_or(async_write),
            sync_read_active: tunables.sync_read_max_active.unwrap_or(sync_read),
            sync_write_active: tunables.sync_write_max_active.unwrap_or(sync_write),
            prefetch: Prefetch::of(line, tunables.prefetch_disable == Some(true)),
            waited_prefetch_raised: line >= (0, 8),
            mirror_runs,
            throttle,
            arc_share,
            arc_all_but,
            arc_max_tunable: tunables.arc_max,
            simd_checksums: simd,
            simd_parity: simd,
            fletcher4_default: !matches!(zfs, ZfsRelease::Solaris { year } if year < 2009),
            lz4_default: line >= (2, 2),
            direct_io: line >= (2, 3) && zfs.platform() == Platform::Linux,
            zil_half_record: line >= (2, 4),
            platform: zfs.platform(),
            // arc.c L2ARC_WRITE_SIZE: 8 MiB in ZoL and OpenZFS to 2.1; 32 MiB in 2.2.9 (OpenZFS
            // pull request 15457, 2023, also raised the headroom).
            l2arc_write_max: if line >= (2, 2) { 32 * MIB } else { 8 * MIB },
        }
    }

    /// Whether `w`'s reads go past the ARC: O_DIRECT where the release honours it
    /// (zfs_vnops.c zfs_setup_direct; fio's block sizes are page-aligned).
    pub(crate) fn direct_reads(&self, w: &Workload) -> bool {
        w.direct && self.direct_io
    }

    /// Whether `w`'s writes into records of `recordsize` go past the ARC: only writes of whole
    /// records do; a write of part of one is passed to the ARC (dmu.c dmu_write_uio_dnode).
    pub(crate) fn direct_writes(&self, w: &Workload, recordsize: u64) -> bool {
        self.direct_reads(w) && w.block_size >= recordsize
    }

    /// Largest ARC on a host of `ram` bytes.
    pub(crate) fn arc_max_bytes(&self, ram: u64) -> f64 {
        if let Some(max) = self.arc_max_tunable {
            return max.min(ram) as f64;
        }
        let shared = ram as f64 * self.arc_share;
        shared.max(ram.saturating_sub(self.arc_all_but) as f64)
    }

    /// Bytes of dirty data the pool may hold on a host of `ram` bytes: zfs_dirty_data_max
    /// (its share of memory, capped), or before it the txg's write limit.
    pub(crate) fn dirty_data_max_bytes(&self, ram: u64) -> f64 {
        match self.throttle {
            Throttle::Dirty { share, max, .. } => (ram as f64 * share).min(max as f64),
            Throttle::WriteLimit { share } => ram as f64 * share,
        }
    }

    /// Bytes of writes the application may run ahead of the disks before it is slowed to their
    /// pace, on a host of `ram` bytes.
    pub(crate) fn write_buffer_bytes(&self, ram: u64) -> f64 {
        let dirty_max = self.dirty_data_max_bytes(ram);
        match self.throttle {
            Throttle::Dirty { delay_share, .. } => dirty_max * delay_share,
            Throttle::WriteLimit { .. } => dirty_max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Release {
        Release::of(text.parse().unwrap(), &Tunables::default())
    }

    #[test]
    fn arc_size_by_kernel_and_release() {
        // 64 GiB: RAM - 1 GiB = 63 GiB beats 5/8 = 40 GiB on OpenZFS 2.3+; 2.2 takes 1/2.
        assert_eq!(of("2.4").arc_max_bytes(64 * GIB), (63 * GIB) as f64);
        assert_eq!(of("2.2").arc_max_bytes(64 * GIB), (32 * GIB) as f64);
        assert_eq!(of("2.4").arc_max_bytes(2 * GIB), 1.25 * GIB as f64);
        assert_eq!(of("solaris-2008").arc_max_bytes(2 * GIB), 1.5 * GIB as f64);
        assert_eq!(
            of("freebsd-10.2").arc_max_bytes(16 * GIB),
            (15 * GIB) as f64
        );
        let tuned = Tunables {
            arc_max: Some(4 * GIB),
            ..Tunables::default()
        };
        let r = Release::of("freebsd-9.0".parse().unwrap(), &tuned);
        assert_eq!(r.arc_max_bytes(12 * GIB), (4 * GIB) as f64);
    }

    #[test]
    fn mirror_sides_by_release() {
        // vdev_mirror.c: offset >> 21 to ZoL 0.6.1, 10 ms slices in 0.6.2-0.6.5, load from 0.7.
        assert_eq!(of("zol-0.6.1").mirror_runs, MirrorRuns::ByOffset(2 << 20));
        assert_eq!(of("zol-0.6.5").mirror_runs, MirrorRuns::TimeSlices(0.010));
        assert_eq!(of("zol-0.7.13").mirror_runs, MirrorRuns::ByLoad(2 << 20));
        assert_eq!(of("freebsd-10.2").mirror_runs, MirrorRuns::ByLoad(2 << 20));
        assert_eq!(
            of("solaris-2008").mirror_runs,
            MirrorRuns::ByOffset(2 << 20)
        );
    }

    #[test]
    fn scheduler_and_throttle_by_era() {
        let old = of("solaris-2008");
        assert_eq!((old.async_write_active, old.sync_read_active), (35, 35));
        assert_eq!(of("freebsd-9.0").async_write_active, 10);
        let new = of("freebsd-10.2");
        assert_eq!((new.async_read_active, new.async_write_active), (3, 10));
        assert_eq!(new.aggregation_hdd, 128 << 10);
        assert_eq!(of("2.1").aggregation_hdd, 1 << 20);
        // 16 GiB: 1.6 GiB of dirty data, slowed from 60% of it.
        let b = new.write_buffer_bytes(16 * GIB);
        assert!((b - 16.0 * GIB as f64 * 0.1 * 0.6).abs() < 1.0, "{b}");
        assert!(of("2.2").lz4_default && !of("2.1").lz4_default);
        assert!(of("2.3").direct_io && !of("2.2").direct_io);
        assert!(!of("solaris-2008").fletcher4_default);
    }
}
