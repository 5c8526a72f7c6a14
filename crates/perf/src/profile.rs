//! How each ZFS release issues I/O where releases differ (zfs-facts.md §2).

use crate::constants::{CpuCosts, CPU_2008, CPU_OPENZFS2};
use crate::zio::mirror::MirrorRuns;
use model::system::ZfsRelease;

/// The behaviour of one ZFS release that the model needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    /// Largest aggregated I/O on rotating media, bytes.
    pub aggregation_hdd: u64,
    /// Largest aggregated I/O on solid state, bytes.
    pub aggregation_ssd: u64,
    /// How far a sequential stream runs ahead (prefetch ahead of a reader, the syncing
    /// transaction group's queue for a writer).
    pub stream_ahead: Ahead,
    /// Aggregated I/Os each leaf keeps active for a stream, reading and writing.
    pub leaf_active_read: u32,
    pub leaf_active_write: u32,
    /// Synchronous reads (an application waiting on each) each leaf keeps active: the
    /// requests a disk may reorder.
    pub leaf_active_sync_read: u32,
    /// How a mirror's sides take turns under a sequential read (zio/mirror.rs).
    pub mirror_runs: MirrorRuns,
    /// CPU cost of the data path.
    pub cpu: CpuCosts,
    /// Largest ARC: max(share x RAM, RAM - `arc_all_but_bytes`).
    pub arc_share: f64,
    pub arc_all_but_bytes: u64,
}

/// A stream's reach ahead, in bytes (whatever the recordsize) or in blocks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ahead {
    Bytes(u64),
    Blocks(u32),
}

/// One GiB: the RAM both ARC sizing rules leave to the rest of the system at least.
const GIB: u64 = 1 << 30;

/// A block pointer is 128 bytes (include/sys/spa.h, blkptr_t).
pub const BLKPTR_BYTES: u64 = 128;
/// Metadata is stored twice (ditto blocks, copies = 2 for indirect blocks: dmu.c).
pub const METADATA_COPIES: u64 = 2;

impl Profile {
    pub fn of(release: ZfsRelease) -> Profile {
        match release.at_least(0, 6) {
            // OpenZFS 2.x: zfs_vdev_aggregation_limit 1 MiB, _non_rotating 128 KiB
            // (vdev_queue.c); dmu_zfetch zfetch_max_distance 64 MiB, in bytes (zfs-facts.md
            // §2); ARC max on Linux max(5/8 RAM, RAM - 1 GiB) in 2.4 (arc.c; zfs-facts.md §2;
            // releases before it took 1/2 of RAM: the profile models 2.4).
            true => Profile {
                aggregation_hdd: 1 << 20,
                aggregation_ssd: 128 << 10,
                stream_ahead: Ahead::Bytes(64 << 20),
                // vdev_queue.c: async read max active 3, async write 10 (zfs-facts.md §2).
                leaf_active_read: 3,
                leaf_active_write: 10,
                // sync_read max active 10 (zfs-facts.md §2).
                leaf_active_sync_read: 10,
                // zfs_vdev_mirror_rotating_seek_inc 5 (vdev_mirror.c, zfs-facts.md §2).
                mirror_runs: MirrorRuns::ByLoad(5),
                cpu: CPU_OPENZFS2,
                arc_share: 5.0 / 8.0,
                arc_all_but_bytes: GIB,
            },
            // Solaris 2006-2008, FreeBSD 8/9 (v28), zfs-fuse: aggregation up to
            // SPA_MAXBLOCKSIZE = 128 KiB (vdev_queue.c of the time, seed 004 sees 127 KB
            // I/Os); prefetch capped at 256 blocks (dmu_zfetch.c zfetch_block_cap);
            // ARC max 3/4 of RAM (arc.c).
            false => Profile {
                aggregation_hdd: 128 << 10,
                aggregation_ssd: 128 << 10,
                stream_ahead: Ahead::Blocks(256),
                // zfs_vdev_max_pending = 35 of the one vdev queue (Solaris vdev_queue.c; seed
                // 004 sees ~35 I/Os of 128 KB in flight). FreeBSD 9 lowered its default to 10,
                // which seed 002 had raised to 30: 35 is kept for the whole era.
                leaf_active_read: 35,
                leaf_active_write: 35,
                leaf_active_sync_read: 35,
                // vdev_mirror_shift 21: 2 MiB runs by offset (vdev_mirror.c of the time).
                mirror_runs: MirrorRuns::ByOffset(2 << 20),
                cpu: CPU_2008,
                arc_share: 0.75,
                arc_all_but_bytes: GIB,
            },
        }
    }

    /// Largest ARC on a host of `ram` bytes.
    pub fn arc_max_bytes(&self, ram: u64) -> f64 {
        (ram as f64 * self.arc_share).max(ram.saturating_sub(self.arc_all_but_bytes) as f64)
    }

    /// Blocks of `recordsize` a sequential stream keeps in flight.
    pub fn stream_blocks(&self, recordsize: u64) -> u32 {
        match self.stream_ahead {
            Ahead::Bytes(b) => (b / recordsize.max(1)).clamp(1, u64::from(u32::MAX)) as u32,
            Ahead::Blocks(n) => n,
        }
    }

    /// Metadata bytes written per data byte of a stream: each block adds a block pointer to
    /// an indirect block, stored twice; higher levels add 1/1024 of that and are ignored.
    pub fn metadata_per_data_byte(&self, recordsize: u64) -> f64 {
        (BLKPTR_BYTES * METADATA_COPIES) as f64 / recordsize as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arc_takes_all_but_a_gib_on_large_hosts() {
        let p = Profile::of(ZfsRelease::default());
        // 64 GiB: RAM - 1 GiB = 63 GiB beats 5/8 = 40 GiB; 2 GiB: 5/8 = 1.25 GiB beats 1 GiB.
        assert_eq!(p.arc_max_bytes(64 * GIB), (63 * GIB) as f64);
        assert_eq!(p.arc_max_bytes(2 * GIB), 1.25 * GIB as f64);
        let old = Profile::of(ZfsRelease::Solaris { year: 2008 });
        assert_eq!(old.arc_max_bytes(2 * GIB), 1.5 * GIB as f64);
        assert_eq!(old.arc_max_bytes(16 * GIB), (15 * GIB) as f64);
    }

    #[test]
    fn prefetch_distance_is_bytes_in_openzfs() {
        // 64 MiB ahead: 512 blocks of 128 KiB, 64 of 1 MiB, 4096 of 16 KiB.
        let p = Profile::of(ZfsRelease::default());
        assert_eq!(p.stream_blocks(128 << 10), 512);
        assert_eq!(p.stream_blocks(1 << 20), 64);
        assert_eq!(p.stream_blocks(16 << 10), 4096);
        assert_eq!(
            Profile::of(ZfsRelease::FreeBsd { major: 9, minor: 0 }).stream_blocks(1 << 20),
            256
        );
    }
}
