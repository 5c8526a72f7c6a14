//! Every rule of the space arithmetic that differs between ZFS releases lives here, in one
//! `Profile`: `Profile::of` a release gives the rules of ZFS on Linux 0.6.0 with each later
//! change (`RULE_CHANGES`, release by release) applied, or the measured rules of the pool-v23
//! era that zfs-fuse runs (`Profile::legacy`). The engine reads rules only through a profile.
//!
//! Each rule is data where the releases differ by a constant, and an enum with a `Custom`
//! variant (a plain function) where a release computes differently: a legacy-only formula can
//! live in its own file (`legacy*.rs`) and be plugged in from `Profile::legacy()` alone.

use model::system::{Platform, ZfsRelease};
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
/// divided by logical_sector / 512 on disks with larger sectors (docs/zfs-internals.md §1).
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
    /// Before ZFS on Linux 0.8: shift = max(highbit(asize / target_count), min_shift),
    /// min_shift being the SPA_MAXBLOCKSHIFT of the day (17: 128 KiB blocks; 24 with the
    /// large blocks of 0.6.5).
    Legacy {
        /// Metaslabs aimed at per vdev (metaslabs_per_vdev = 200).
        target_count: u64,
        /// The smallest metaslab shift: SPA_MAXBLOCKSHIFT of the day.
        min_shift: u32,
    },
    /// Another rule: vdev asize -> metaslab shift.
    Custom(fn(u64) -> u32),
}

/// Slop space: what `zfs list` holds back from the pool (module/zfs/spa_misc.c
/// spa_get_slop_space; before 2014, dsl_pool_adjustedsize itself).
#[derive(Debug, Clone, Copy)]
pub enum SlopRule {
    /// ZFS on Linux 0.7+: slop = min(dspace >> shift, max) - min(embedded log, slop / 2), then
    /// at least min(dspace / 2, min). No cap (`max` = u64::MAX) before 2.0.6, no embedded log
    /// before 2.1.
    OpenZfs {
        /// spa_slop_shift = 5 (1/32).
        shift: u32,
        /// spa_min_slop = 128 MiB.
        min: u64,
        /// spa_max_slop = 128 GiB.
        max: u64,
    },
    /// Up to ZFS on Linux 0.6.x: resv = max(dspace >> shift, min), min 32 MiB (half of
    /// SPA_MINDEVSIZE), no cap; shift 6 (1/64, dsl_pool_adjustedsize) up to 0.6.4, 5 (1/32,
    /// spa_get_slop_space) in 0.6.5.
    Legacy {
        /// dspace >> shift is held back.
        shift: u32,
        /// The least held back, bytes (32 MiB).
        min: u64,
    },
    /// Another rule: (dspace, embedded log dspace) -> slop.
    Custom(fn(u64, u64) -> u64),
}

/// What an empty pool's own metadata takes from `zfs list` AVAIL (the root dataset's USED:
/// the MOS, space maps, the root file system's objects and their ditto copies).
///
/// APPROXIMATION: no formula for this exists in docs/zfs-internals.md §1, and the figure depends
/// on the release, its features and the vdev count. It is modelled as `blocks` allocations of
/// `psize` bytes each, every one charged as `zfs list` charges a block on the pool's first
/// normal vdev (rounded to the sector, parity and padding included, deflated). With 100 blocks
/// of 1 KiB this gives 100 KiB at ashift 9 and 400 KiB at ashift 12 on a single disk or mirror,
/// the order of magnitude a freshly created pool shows; it is not exact.
#[derive(Debug, Clone, Copy)]
pub enum EmptyPoolUsed {
    /// `blocks` allocations of `psize` bytes, each charged as a block on the first normal vdev.
    Blocks {
        /// How many blocks.
        blocks: u64,
        /// Each block's psize, bytes.
        psize: u64,
    },
    /// A fixed number of bytes.
    Bytes(u64),
    /// Another rule: (ashift, asize of a one-sector block on the first normal vdev, its deflate
    /// ratio) -> bytes.
    Custom(fn(u8, u64, u64) -> u64),
}

/// The rules of one ZFS release line (`Profile::of` a release).
#[derive(Debug, Clone)]
pub struct Profile {
    /// Short name for reports: the release line whose rules these are (`openzfs-2.1`,
    /// `zol-0.6.5`), or `legacy`.
    pub name: &'static str,
    /// One line for reports.
    pub description: &'static str,
    /// Label sizes and reserves of every leaf.
    pub label: LabelRule,
    /// How `zpool create` partitions a whole disk.
    pub whole_disk: WholeDisk,
    /// How a vdev's asize is cut into metaslabs.
    pub metaslab: MetaslabSizing,
    /// A normal-class top-level vdev with more than this many metaslabs gives one to the
    /// embedded ZIL (log class): zfs_embedded_slog_min_ms = 64 since 2.1; `None` before.
    pub embedded_log_min_ms: Option<u64>,
    /// Special vdevs lend one too (OpenZFS 2.4).
    pub embedded_log_special: bool,
    /// A raidz vdev can be widened by attaching a disk (OpenZFS 2.3, `zpool attach`).
    pub raidz_expansion: bool,
    /// What `zfs list` holds back.
    pub slop: SlopRule,
    /// dRAID exists (OpenZFS 2.1+).
    pub draid: bool,
    /// Largest recordsize (SPA_MAXBLOCKSIZE: 16 MiB with large_blocks, 128 KiB before).
    pub max_recordsize: u64,
    /// Smallest ashift accepted (ASHIFT_MIN, 9).
    pub ashift_min: u8,
    /// Largest ashift accepted (ASHIFT_MAX, 16 in OpenZFS 2.x).
    pub ashift_max: u8,
    /// What the empty pool's own metadata takes from AVAIL.
    pub empty_pool_used: EmptyPoolUsed,
}

/// Label sizes, unchanged since the first ZFS (vdev_impl.h).
pub(crate) const LABELS: LabelRule = LabelRule {
    align: 256 * KIB,
    start: 4 * MIB,
    end: 512 * KIB,
    min_device: 64 * MIB,
};

/// The Linux GPT of `zpool create` on a whole disk (docs/zfs-internals.md §1).
pub(crate) const LINUX_GPT: GptRule = GptRule {
    entries: 128,
    start_512: 2048,
    reserved_512: 16384,
    end_align_sectors: 2048,
};

/// See `EmptyPoolUsed`: an approximation, stated as such.
pub(crate) const EMPTY_POOL_APPROX: EmptyPoolUsed = EmptyPoolUsed::Blocks {
    blocks: 100,
    psize: KIB,
};

/// The metaslab sizing of OpenZFS 0.8 and later (module/zfs/vdev.c vdev_metaslab_set_size and
/// its tunables, unchanged from 0.8.6 to 2.4.4).
pub(crate) const OPENZFS_METASLABS: MetaslabSizing = MetaslabSizing::OpenZfs {
    target_count: 200,
    min_count: 16,
    default_shift: 29,
    min_shift: 24,
    max_shift: 34,
    count_limit: 1 << 17,
};

/// One change to the space rules, in the release that made it. The sources are the release
/// tags of https://github.com/openzfs/zfs (docs/space-rules.md has a worked example of each).
pub struct RuleChange {
    /// The first ZFS on Linux / OpenZFS release with the change.
    pub since: (u8, u8, u8),
    /// The last release tag without it and the first with it, as read.
    pub tags: (&'static str, &'static str),
    /// The profile's name from this release on.
    pub name: &'static str,
    /// The profile's description from this release on.
    pub description: &'static str,
    /// The OpenZFS file, line and function that show it, in the first tag with it.
    pub source: &'static str,
    /// Changes a profile of the previous rules into this release's.
    pub apply: fn(&mut Profile),
}

/// Every change since ZFS on Linux 0.6.0, oldest first. Each was found by reading the
/// release tags' sources (the last tag without the change and the first with it) and, from
/// 2.1 on, by the oracle (scripts/openzfs-oracle.sh, crates/space/tests/openzfs_recorded.rs).
pub const RULE_CHANGES: [RuleChange; 8] = [
    RuleChange {
        since: (0, 6, 5),
        tags: ("zfs-0.6.4.2", "zfs-0.6.5"),
        name: "zol-0.6.5",
        description: "ZFS on Linux 0.6.5: slop 1/32, 16 MiB blocks",
        source: "module/zfs/spa_misc.c:1605 spa_get_slop_space: MAX(dspace >> spa_slop_shift \
                 (:338, 5), SPA_MINDEVSIZE >> 1), no cap (0.6.4.2: dsl_pool.c:622 \
                 dsl_pool_adjustedsize, >> 6); include/sys/spa.h:116 SPA_MAXBLOCKSHIFT 24 \
                 (0.6.4.2: 17), the least metaslab shift (vdev.c:1638 \
                 vdev_metaslab_set_size); dsl_dataset.c:63 zfs_max_recordsize 1 MiB",
        apply: |p| {
            p.slop = SlopRule::Legacy {
                shift: 5,
                min: 32 * MIB,
            };
            p.metaslab = MetaslabSizing::Legacy {
                target_count: 200,
                min_shift: 24,
            };
            p.max_recordsize = MIB;
        },
    },
    RuleChange {
        since: (0, 7, 0),
        tags: ("zfs-0.6.5.11", "zfs-0.7.0"),
        name: "zol-0.7",
        description: "ZFS on Linux 0.7: slop at least min(128 MiB, half the pool)",
        source: "module/zfs/spa_misc.c:1665 spa_get_slop_space: MAX(dspace >> 5, \
                 MIN(dspace >> 1, spa_min_slop (:353, 128 MiB)))",
        apply: |p| {
            p.slop = SlopRule::OpenZfs {
                shift: 5,
                min: 128 * MIB,
                max: u64::MAX,
            };
        },
    },
    RuleChange {
        since: (0, 8, 0),
        tags: ("zfs-0.7.13", "zfs-0.8.0"),
        name: "zol-0.8",
        description: "ZFS on Linux 0.8 and OpenZFS 2.0.0-2.0.5: metaslabs of 512 MiB to \
                      16 GiB, 16 to 2^17 per vdev",
        source: "module/zfs/vdev.c:2324 vdev_metaslab_set_size: zfs_vdev_default_ms_count \
                 (:59) 200, zfs_vdev_min_ms_count (:62) 16, zfs_vdev_ms_count_limit (:65) \
                 2^17, zfs_vdev_default_ms_shift (:68) 29, zfs_vdev_max_ms_shift (:71) 34",
        apply: |p| p.metaslab = OPENZFS_METASLABS,
    },
    RuleChange {
        since: (2, 0, 6),
        tags: ("zfs-2.0.5", "zfs-2.0.6"),
        name: "openzfs-2.0.6",
        description: "OpenZFS 2.0.6-2.0.7: slop at most 128 GiB",
        source: "module/zfs/spa_misc.c:1807 spa_get_slop_space: MIN(dspace >> 5, \
                 spa_max_slop (:385, 128 GiB)), then the floor (:1813); zfs-2.0.5 \
                 spa_misc.c:1788 has no cap",
        apply: |p| {
            p.slop = SlopRule::OpenZfs {
                shift: 5,
                min: 128 * MIB,
                max: 128 * GIB,
            };
        },
    },
    RuleChange {
        since: (2, 1, 0),
        tags: ("zfs-2.0.7", "zfs-2.1.0"),
        name: "openzfs-2.1",
        description: "OpenZFS 2.1: embedded log metaslab, dRAID",
        source: "module/zfs/vdev.c:1463 vdev_metaslab_init: a normal vdev with more than \
                 zfs_embedded_slog_min_ms (:82) = 64 metaslabs lends one to the embedded log \
                 class; spa_misc.c:1812 spa_get_slop_space subtracts it, up to half the slop; \
                 vdev_draid.c (absent in zfs-2.0.7)",
        apply: |p| {
            p.embedded_log_min_ms = Some(64);
            p.draid = true;
        },
    },
    RuleChange {
        since: (2, 2, 0),
        tags: ("zfs-2.1.16", "zfs-2.2.0"),
        name: "openzfs-2.2",
        description: "OpenZFS 2.2: 16 MiB records by default",
        source: "module/zfs/dsl_dataset.c:87 zfs_max_recordsize = 16 MiB on 64-bit systems \
                 (zfs-2.1.16 dsl_dataset.c:81: 1 MiB)",
        apply: |p| p.max_recordsize = 16 * MIB,
    },
    RuleChange {
        since: (2, 3, 0),
        tags: ("zfs-2.2.11", "zfs-2.3.0"),
        name: "openzfs-2.3",
        description: "OpenZFS 2.3: raidz expansion",
        source: "module/zfs/vdev_raidz.c:4761 vdev_raidz_attach_sync (zpool attach on a raidz \
                 vdev), :2247 vdev_raidz_asize at the logical width of the block's birth txg \
                 (:2215 vdev_raidz_get_logical_width); vdev.c:1964 vdev_set_deflate_ratio at \
                 txg 0, the original width",
        apply: |p| p.raidz_expansion = true,
    },
    RuleChange {
        since: (2, 4, 0),
        tags: ("zfs-2.3.9", "zfs-2.4.0"),
        name: "openzfs-2.4",
        description: "OpenZFS 2.4: special vdevs lend an embedded log metaslab too",
        source: "module/zfs/vdev.c:1691 vdev_metaslab_init: normal and special vdevs (the \
                 special one to spa_special_embedded_log_class, vdev.c:1571); spa_misc.c:1970 \
                 spa_get_slop_space subtracts both (zfs-2.3.9 vdev.c:1641: normal only)",
        apply: |p| p.embedded_log_special = true,
    },
];

impl Profile {
    /// The rules of the current OpenZFS (model::release::DEFAULT_RELEASE).
    pub fn modern() -> Profile {
        Profile::of(ZfsRelease::default())
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
            whole_disk: WholeDisk::Raw,
            empty_pool_used: EmptyPoolUsed::Custom(crate::legacy::empty_pool_used),
            ..Profile::zol_0_6()
        }
    }

    /// ZFS on Linux 0.6.0 to 0.6.4.2: the pool-v28 era rules of zfs-fuse (vdev.c
    /// vdev_metaslab_set_size: shift = MAX(highbit(asize / 200), SPA_MAXBLOCKSHIFT = 17);
    /// dsl_pool.c dsl_pool_adjustedsize: reserve MAX(dspace >> 6, SPA_MINDEVSIZE >> 1)), on
    /// Linux's GPT whole disks (libzfs_pool.c zpool_label_disk, the same from 0.6.0 to 2.x).
    fn zol_0_6() -> Profile {
        Profile {
            name: "zol-0.6",
            description: "ZFS on Linux 0.6.0-0.6.4: slop 1/64, metaslabs of asize / 200",
            label: LABELS,
            whole_disk: WholeDisk::Gpt(LINUX_GPT),
            metaslab: MetaslabSizing::Legacy {
                target_count: 200,
                min_shift: 17,
            },
            embedded_log_min_ms: None,
            embedded_log_special: false,
            raidz_expansion: false,
            slop: SlopRule::Legacy {
                shift: 6,
                min: 32 * MIB,
            },
            draid: false,
            max_recordsize: 128 * KIB,
            ashift_min: 9,
            ashift_max: 16,
            empty_pool_used: EMPTY_POOL_APPROX,
        }
    }

    /// The rules of ZFS on Linux / OpenZFS `version` (major, minor, patch): those of 0.6.0
    /// with every change of `RULE_CHANGES` up to it applied.
    pub fn openzfs(version: (u8, u8, u8)) -> Profile {
        let mut p = Profile::zol_0_6();
        for change in RULE_CHANGES.iter().filter(|c| c.since <= version) {
            (change.apply)(&mut p);
            p.name = change.name;
            p.description = change.description;
        }
        p
    }

    /// The rules of the ZFS that created the pool. Code older than ZFS on Linux 0.6.5's
    /// changes outside Linux (Solaris, zfs-fuse, FreeBSD up to 9, illumos before 2014) has the
    /// measured pre-2014 rules of `legacy`; later FreeBSD and illumos follow the ZoL release of
    /// the date of their code (`ZfsRelease::openzfs_version`, docs/space-rules.md), FreeBSD
    /// using whole disks unpartitioned as its zpool does.
    pub fn of(release: ZfsRelease) -> Profile {
        match release.openzfs_version() {
            None => Profile::legacy(),
            Some(version) => {
                let mut p = Profile::openzfs(version);
                if release.platform() == Platform::FreeBsd {
                    p.whole_disk = WholeDisk::Raw;
                }
                p
            }
        }
    }
}

impl Default for Profile {
    fn default() -> Self {
        Profile::modern()
    }
}
