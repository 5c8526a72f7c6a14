//! How each ZFS release issues I/O where releases differ (zfs-facts.md §2).

use crate::constants::{CpuCosts, CPU_2008, CPU_OPENZFS2};
use model::system::ZfsRelease;

/// The behaviour of one ZFS release that the model needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    /// Largest aggregated I/O on rotating media, bytes.
    pub aggregation_hdd: u64,
    /// Largest aggregated I/O on solid state, bytes.
    pub aggregation_ssd: u64,
    /// Logical blocks a sequential stream keeps in flight (prefetch ahead of a reader, the
    /// syncing transaction group's queue for a writer).
    pub stream_blocks_in_flight: u32,
    /// Aggregated I/Os each leaf keeps active for a stream, reading and writing.
    pub leaf_active_read: u32,
    pub leaf_active_write: u32,
    /// Synchronous reads (an application waiting on each) each leaf keeps active: the
    /// requests a disk may reorder.
    pub leaf_active_sync_read: u32,
    /// CPU cost of the data path.
    pub cpu: CpuCosts,
    /// Largest ARC as a share of RAM.
    pub arc_share: f64,
}

/// A block pointer is 128 bytes (include/sys/spa.h, blkptr_t).
pub const BLKPTR_BYTES: u64 = 128;
/// Metadata is stored twice (ditto blocks, copies = 2 for indirect blocks: dmu.c).
pub const METADATA_COPIES: u64 = 2;

impl Profile {
    pub fn of(release: ZfsRelease) -> Profile {
        match release {
            // OpenZFS 2.x: zfs_vdev_aggregation_limit 1 MiB, _non_rotating 128 KiB
            // (vdev_queue.c); dmu_zfetch zfetch_max_distance 64 MiB = 512 blocks of 128 KiB;
            // ARC max 5/8 of RAM on Linux
            // (arc.c, 2.4; zfs-facts.md §2).
            ZfsRelease::Openzfs2 => Profile {
                aggregation_hdd: 1 << 20,
                aggregation_ssd: 128 << 10,
                stream_blocks_in_flight: 512,
                // vdev_queue.c: async read max active 3, async write 10 (zfs-facts.md §2).
                leaf_active_read: 3,
                leaf_active_write: 10,
                // sync_read max active 10 (zfs-facts.md §2).
                leaf_active_sync_read: 10,
                cpu: CPU_OPENZFS2,
                arc_share: 5.0 / 8.0,
            },
            // Solaris 2006-2008, FreeBSD 8/9 (v28), zfs-fuse: aggregation up to
            // SPA_MAXBLOCKSIZE = 128 KiB (vdev_queue.c of the time, seed 004 sees 127 KB
            // I/Os); prefetch capped at 256 blocks (dmu_zfetch.c zfetch_block_cap);
            // ARC max 3/4 of RAM (arc.c).
            ZfsRelease::Solaris2008 | ZfsRelease::PoolV28 | ZfsRelease::ZfsFuse => Profile {
                aggregation_hdd: 128 << 10,
                aggregation_ssd: 128 << 10,
                stream_blocks_in_flight: 256,
                // zfs_vdev_max_pending = 35 of the one vdev queue (Solaris vdev_queue.c; seed
                // 004 sees ~35 I/Os of 128 KB in flight). FreeBSD 9 lowered its default to 10,
                // which seed 002 had raised to 30: 35 is kept for the whole era.
                leaf_active_read: 35,
                leaf_active_write: 35,
                leaf_active_sync_read: 35,
                cpu: CPU_2008,
                arc_share: 0.75,
            },
        }
    }

    /// Metadata bytes written per data byte of a stream: each block adds a block pointer to
    /// an indirect block, stored twice; higher levels add 1/1024 of that and are ignored.
    pub fn metadata_per_data_byte(&self, recordsize: u64) -> f64 {
        (BLKPTR_BYTES * METADATA_COPIES) as f64 / recordsize as f64
    }
}
