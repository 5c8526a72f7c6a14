//! Every rule of the space arithmetic that differs between ZFS releases lives here, in one
//! `Profile`: OpenZFS 2.2+ (`Profile::modern`) and the older rules of the pool-v23 era that
//! zfs-fuse runs (`Profile::legacy`). The engine reads rules only through a profile.
//!
//! Each rule is data where the releases differ by a constant, and an enum with a `Custom`
//! variant (a plain function) where a release computes differently: a legacy-only formula can
//! live in its own file (`legacy*.rs`) and be plugged in from `Profile::legacy()` alone.

use model::system::ZfsRelease;
use model::units::{GIB, KIB, MIB};

/// Label and reserve sizes of a leaf vdev (include/sys/vdev_impl.h, module/zfs/vdev.c).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelRule {
    /// osize is rounded down to a multiple of this: sizeof (vdev_label_t) = 256 KiB.
    pub align: u64,
    /// VDEV_LABEL_START_SIZE: 2 labels of 256 KiB and the 3.5 MiB boot area = 4 MiB.
    pub start: u64,
    /// VDEV_LABEL_END_SIZE: 2 labels of 256 KiB = 512 KiB.
    pub end: u64,
    /// SPA_MINDEVSIZE: the smallest leaf (after alignment) a pool accepts, 64 MiB.
    pub min_device: u64,
}

/// The Linux whole-disk GPT that `zpool create` writes (lib/libzfs/os/linux/libzfs_pool_os.c
/// zpool_label_disk, lib/libefi/rdwr_efi.c efi_alloc_and_init). Sizes are in 512-byte units and
/// divided by logical_sector / 512 on disks with larger sectors (zfs-facts.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GptRule {
    /// GPT partition entries (EFI_NUMPAR = 128 entries of 128 bytes).
    pub entries: u64,
    /// NEW_START_BLOCK: the data partition starts at 2048 x 512 B = 1 MiB.
    pub start_512: u64,
    /// EFI_MIN_RESV_SIZE: partition 9, 16384 x 512 B = 8 MiB, after the data partition.
    pub reserved_512: u64,
    /// PARTITION_END_ALIGNMENT: the data partition length is a multiple of 2048 sectors.
    pub end_align_sectors: u64,
}

/// How a whole disk handed to `zpool create` becomes the leaf's device.
#[derive(Debug, Clone, Copy)]
pub enum WholeDisk {
    /// Linux: zpool labels the disk with a GPT and uses partition 1.
    Gpt(GptRule),
    /// The whole device is the leaf, no partition table.
    Raw,
    /// Another rule: (capacity in bytes, logical sector) -> bytes of the leaf's device.
    Custom(fn(u64, u32) -> u64),
}

/// How metaslabs are sized (module/zfs/vdev.c vdev_metaslab_set_size).
#[derive(Debug, Clone, Copy)]
pub enum MetaslabSizing {
    /// OpenZFS 0.8+ (and 2.x): aim for `target_count` metaslabs, at least `min_count`,
    /// metaslabs of `default_shift` in between, shift clamped to [min_shift, max_shift] and the
    /// count capped at `count_limit` past the top.
    OpenZfs {
        /// zfs_vdev_default_ms_count = 200.
        target_count: u64,
        /// zfs_vdev_min_ms_count = 16.
        min_count: u64,
        /// zfs_vdev_default_ms_shift = 29 (512 MiB).
        default_shift: u32,
        /// SPA_MAXBLOCKSHIFT = 24.
        min_shift: u32,
        /// zfs_vdev_max_ms_shift = 34 (16 GiB).
        max_shift: u32,
        /// zfs_vdev_ms_count_limit = 2^17.
        count_limit: u64,
    },
    /// Before 2013 (illumos 3711 and later changes): shift = max(highbit(asize / target_count),
    /// min_shift), min_shift being the SPA_MAXBLOCKSHIFT of the day (17: 128 KiB blocks).
    Legacy { target_count: u64, min_shift: u32 },
    /// Another rule: vdev asize -> metaslab shift.
    Custom(fn(u64) -> u32),
}

/// Slop space: what `zfs list` holds back from the pool (module/zfs/spa_misc.c
/// spa_get_slop_space; before 2014, dsl_pool_adjustedsize itself).
#[derive(Debug, Clone, Copy)]
pub enum SlopRule {
    /// OpenZFS 2.1+: slop = min(dspace >> shift, max) - min(embedded log, slop / 2), then at
    /// least min(dspace / 2, min).
    OpenZfs {
        /// spa_slop_shift = 5 (1/32).
        shift: u32,
        /// spa_min_slop = 128 MiB.
        min: u64,
        /// spa_max_slop = 128 GiB.
        max: u64,
    },
    /// Before illumos 4951 (2014): resv = max(dspace >> shift, min), shift 6 (1/64), min 32 MiB
    /// (SPA_MINDEVSIZE >> 1), no cap.
    Legacy { shift: u32, min: u64 },
    /// Another rule: (dspace, embedded log dspace) -> slop.
    Custom(fn(u64, u64) -> u64),
}

/// What an empty pool's own metadata takes from `zfs list` AVAIL (the root dataset's USED:
/// the MOS, space maps, the root file system's objects and their ditto copies).
///
/// APPROXIMATION: no formula for this exists in zfs-facts.md, and the figure depends on the
/// release, its features and the vdev count. It is modelled as `blocks` allocations of `psize`
/// bytes each, every one charged as `zfs list` charges a block on the pool's first normal vdev
/// (rounded to the sector, parity and padding included, deflated). With 100 blocks of 1 KiB
/// this gives 100 KiB at ashift 9 and 400 KiB at ashift 12 on a single disk or mirror, the
/// order of magnitude a freshly created pool shows; it is not exact.
#[derive(Debug, Clone, Copy)]
pub enum EmptyPoolUsed {
    Blocks {
        blocks: u64,
        psize: u64,
    },
    /// A fixed number of bytes.
    Bytes(u64),
    /// Another rule: (ashift, asize of a one-sector block on the first normal vdev, its deflate
    /// ratio) -> bytes.
    Custom(fn(u8, u64, u64) -> u64),
}

/// The rules of one ZFS release line.
#[derive(Debug, Clone)]
pub struct Profile {
    /// Short name as the CLI takes it: `modern`, `legacy`.
    pub name: &'static str,
    /// One line for reports.
    pub description: &'static str,
    pub label: LabelRule,
    pub whole_disk: WholeDisk,
    pub metaslab: MetaslabSizing,
    /// A normal-class top-level vdev with more than this many metaslabs gives one to the
    /// embedded ZIL (log class): zfs_embedded_slog_min_ms = 64 since 2.1; `None` before.
    pub embedded_log_min_ms: Option<u64>,
    pub slop: SlopRule,
    /// dRAID exists (OpenZFS 2.1+).
    pub draid: bool,
    /// Largest recordsize (SPA_MAXBLOCKSIZE: 16 MiB with large_blocks, 128 KiB before).
    pub max_recordsize: u64,
    /// ashift range accepted (ASHIFT_MIN 9 .. ASHIFT_MAX 16 in OpenZFS 2.x).
    pub ashift_min: u8,
    pub ashift_max: u8,
    pub empty_pool_used: EmptyPoolUsed,
}

/// Label sizes, unchanged since the first ZFS (vdev_impl.h).
pub const LABELS: LabelRule = LabelRule {
    align: 256 * KIB,
    start: 4 * MIB,
    end: 512 * KIB,
    min_device: 64 * MIB,
};

/// The Linux GPT of `zpool create` on a whole disk (zfs-facts.md §1).
pub const LINUX_GPT: GptRule = GptRule {
    entries: 128,
    start_512: 2048,
    reserved_512: 16384,
    end_align_sectors: 2048,
};

/// See `EmptyPoolUsed`: an approximation, stated as such.
pub const EMPTY_POOL_APPROX: EmptyPoolUsed = EmptyPoolUsed::Blocks {
    blocks: 100,
    psize: KIB,
};

impl Profile {
    /// OpenZFS 2.2 and later (the rules in zfs-facts.md §1).
    pub fn modern() -> Profile {
        Profile {
            name: "modern",
            description: "OpenZFS 2.2+",
            label: LABELS,
            whole_disk: WholeDisk::Gpt(LINUX_GPT),
            metaslab: MetaslabSizing::OpenZfs {
                target_count: 200,
                min_count: 16,
                default_shift: 29,
                min_shift: 24,
                max_shift: 34,
                count_limit: 1 << 17,
            },
            embedded_log_min_ms: Some(64),
            slop: SlopRule::OpenZfs {
                shift: 5,
                min: 128 * MIB,
                max: 128 * GIB,
            },
            draid: true,
            max_recordsize: 16 * MIB,
            ashift_min: 9,
            ashift_max: 16,
            empty_pool_used: EMPTY_POOL_APPROX,
        }
    }

    /// The rules zfs-fuse 0.7 (pool version 23) follows, checked against a real zfs-fuse
    /// (docs/zfs-fuse-legacy.md; SIZE and AVAIL + USED exact for 65 pools of 13 layouts):
    /// - metaslabs: shift = max(highbit(asize / 200), 17), no cap (a 64 MiB disk gets 119
    ///   metaslabs of 512 KiB); no embedded ZIL metaslab;
    /// - reserve 1/64 of dspace with a 32 MiB floor (SPA_MINDEVSIZE / 2) and no cap;
    /// - raidz padding to p + 1 sectors and the 128 KiB deflate ratio as today;
    /// - 128 KiB largest block; no dRAID; file vdevs used raw;
    /// - the empty pool's USED fitted to the measurements (`legacy::empty_pool_used`).
    pub fn legacy() -> Profile {
        Profile {
            name: "legacy",
            description: "zfs-fuse / pool v23 (pre-2014 rules)",
            label: LABELS,
            whole_disk: WholeDisk::Raw,
            metaslab: MetaslabSizing::Legacy {
                target_count: 200,
                min_shift: 17,
            },
            embedded_log_min_ms: None,
            slop: SlopRule::Legacy {
                shift: 6,
                min: 32 * MIB,
            },
            draid: false,
            max_recordsize: 128 * KIB,
            ashift_min: 9,
            ashift_max: 16,
            empty_pool_used: EmptyPoolUsed::Custom(crate::legacy::empty_pool_used),
        }
    }

    /// The rules of the ZFS a system runs: releases whose code predates 2013 share the
    /// pre-2014 rules of the legacy profile (measured on zfs-fuse); later ones are modern.
    pub fn of(release: ZfsRelease) -> Profile {
        if release.at_least(0, 6) {
            Profile::modern()
        } else {
            Profile::legacy()
        }
    }
}

impl Default for Profile {
    fn default() -> Self {
        Profile::modern()
    }
}
