//! A pool as `zpool create` would build it: top-level vdev groups per allocation class, the
//! leaves they are made of, ashift, spares, and the datasets on it.

use crate::dataset::{Checksum, Compression, Encryption, Logbias, PrimaryCache, SyncPolicy};
use crate::layout::Layout;

/// The ashifts a pool takes: ASHIFT_MIN 9 to ASHIFT_MAX 16 (include/sys/vdev_impl.h).
pub const ASHIFT_RANGE: std::ops::RangeInclusive<u8> = 9..=16;

/// The ashift assumed for a disk known only by its size: 12, the 4 KiB physical sector of
/// Advanced Format disks, which nearly every disk sold since 2011 has (IDEMA's AF transition).
pub const ASSUMED_ASHIFT: u8 = 12;

/// The ashift `zpool create` picks on disks of these sectors: ZFS on Linux from 0.6 (vdev_disk.c
/// takes the block device's physical block size), FreeBSD from 10 (vdev_geom.c, the provider's
/// stripesize) and OpenZFS use the physical sector the disks report; older releases used the
/// logical one (seed 002: FreeBSD 9 made ashift 9 on 4 KiB-sector disks until gnop posed them
/// as 4096-byte devices). A physical sector past zfs_vdev_max_auto_ashift (14: 16 KiB) is not
/// followed: the logical one is kept (vdev.c vdev_ashift_optimize).
pub fn auto_ashift(logical: u32, physical: u32, release: crate::ZfsRelease) -> u8 {
    let shift = |sector: u32| sector.max(1).trailing_zeros() as u8;
    let (logical, physical) = (shift(logical), shift(physical));
    let chosen = if release.at_least(0, 6) && physical <= MAX_AUTO_ASHIFT {
        physical.max(logical)
    } else {
        logical
    };
    chosen.clamp(*ASHIFT_RANGE.start(), *ASHIFT_RANGE.end())
}

/// zfs_vdev_max_auto_ashift (module/zfs/vdev.c): the largest ashift chosen automatically.
const MAX_AUTO_ASHIFT: u8 = 14;

/// The allocation class a top-level vdev serves (include/sys/spa.h, metaslab classes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VdevClass {
    /// Data, and metadata where no special vdev takes it.
    Normal,
    /// The special class: metadata and small blocks.
    Special,
    /// The dedup class: the dedup table.
    Dedup,
    /// Separate intent log (SLOG): not part of `zpool list` SIZE.
    Log,
}

impl VdevClass {
    /// The class as `zpool status` heads it: normal, special, dedup, log.
    pub fn word(&self) -> &'static str {
        match self {
            VdevClass::Normal => "normal",
            VdevClass::Special => "special",
            VdevClass::Dedup => "dedup",
            VdevClass::Log => "log",
        }
    }
}

/// What a leaf vdev is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Leaf {
    /// Capacity of the device or file in bytes.
    pub capacity_bytes: u64,
    /// Logical sector size (512 or 4096); the GPT zpool writes on a whole disk depends on it.
    pub logical_sector: u32,
    /// A whole disk handed to `zpool create` on Linux (partitioned by zpool) rather than a file.
    pub whole_disk: bool,
}

/// A group of identical top-level vdevs in one class, made of identical leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopLevel {
    /// The class the vdevs serve.
    pub class: VdevClass,
    /// The vdevs, as groups of one shape.
    pub layout: Layout,
    /// What each of their leaves is.
    pub leaf: Leaf,
}

/// One dataset's properties that change how much space and I/O its data costs.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// The dataset's name (`tank/vm`); the pool's name for its root.
    pub name: String,
    /// The largest block a file's data is written in, bytes.
    pub recordsize: u64,
    /// The `compression` property.
    pub compression: Compression,
    /// Expected compression ratio of the dataset's own data (1.0 = incompressible), as
    /// `zfs get compressratio` reports it; a benchmark's data brings its own (Workload::data).
    pub compression_ratio: f64,
    /// The `checksum` property.
    pub checksum: Checksum,
    /// The `sync` property.
    pub sync: SyncPolicy,
    /// The `logbias` property.
    pub logbias: Logbias,
    /// `special_small_blocks`: blocks of at most this many bytes go to a special vdev, with
    /// the metadata (0: only metadata does; module/zfs/spa_misc.c spa_preferred_class).
    pub special_small_blocks: u64,
    /// The `primarycache` property.
    pub primarycache: PrimaryCache,
    /// The `encryption` property.
    pub encryption: Encryption,
    /// A volume (zvol) of blocks of this many bytes instead of a file system; `None`: a file
    /// system.
    pub volblocksize: Option<u64>,
}

impl Dataset {
    /// A dataset with every property at its default.
    pub fn named(name: &str) -> Dataset {
        Dataset {
            name: name.to_string(),
            recordsize: DEFAULT_RECORDSIZE,
            compression: Compression::Default,
            compression_ratio: 1.0,
            checksum: Checksum::On,
            sync: SyncPolicy::Standard,
            logbias: Logbias::Latency,
            special_small_blocks: 0,
            primarycache: PrimaryCache::All,
            encryption: Encryption::Off,
            volblocksize: None,
        }
    }
}

/// The default recordsize of a filesystem dataset (module/zfs/zfs_prop.c: 128K).
pub const DEFAULT_RECORDSIZE: u64 = 128 * 1024;

/// The share of the span a pool's data occupies that is free: holes left by frees among the
/// data. A pool in service has rewritten and deleted data; the allocator prefers metaslabs
/// with large free segments (metaslab.c metaslab_segment_weight), so holes in older metaslabs
/// stay while untouched ones remain. Not measured: a round figure taken for every pool alike
/// (docs/assumptions.md "Resilver time"); a pool written once in order has 0.
pub const FREE_AMONG_DATA: f64 = 0.2;

/// The fraction of each disk, from its outer edge, that a pool `fill` full spans with its
/// data and the holes among it ([`FREE_AMONG_DATA`]): metaslabs fill from the outer, low-LBA
/// edge first. At 80% full and above it spans the whole disk.
pub fn data_span(fill: f64) -> f64 {
    (fill / (1.0 - FREE_AMONG_DATA)).clamp(0.0, 1.0)
}

/// A whole pool.
#[derive(Debug, Clone, PartialEq)]
pub struct Pool {
    /// The pool's name, as `zpool list` shows it.
    pub name: String,
    /// log2 of the smallest allocation on every vdev (9 = 512 B, 12 = 4 KiB).
    pub ashift: u8,
    /// Top-level vdevs, as groups of one class and shape.
    pub vdevs: Vec<TopLevel>,
    /// Hot spares (leaves not in any vdev), and the leaf they are.
    pub spares: u32,
    /// L2ARC cache devices: they add no space.
    pub cache_devices: u32,
    /// The datasets whose properties matter; workloads use the first.
    pub datasets: Vec<Dataset>,
}

impl Pool {
    /// A pool of one normal-class layout on identical leaves, with the root dataset only.
    pub fn simple(layout: Layout, leaf: Leaf, ashift: u8) -> Pool {
        Pool {
            name: "tank".to_string(),
            ashift,
            vdevs: vec![TopLevel {
                class: VdevClass::Normal,
                layout,
                leaf,
            }],
            spares: 0,
            cache_devices: 0,
            datasets: vec![Dataset::named("tank")],
        }
    }

    /// The normal-class layout groups (what holds the data).
    pub fn normal(&self) -> impl Iterator<Item = &TopLevel> {
        self.vdevs.iter().filter(|t| t.class == VdevClass::Normal)
    }

    /// The normal-class layout as written: `2x raidz2-6 + mirror-2`.
    pub fn normal_layout(&self) -> String {
        self.normal()
            .map(|t| t.layout.to_string())
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

#[cfg(test)]
mod tests {
    use super::{auto_ashift, data_span};

    #[test]
    fn a_pools_data_and_its_holes_span_a_fifth_more_than_its_fill() {
        // 20% of the span free among the data: 40% full spans half of each disk, and from
        // 80% full the whole of it.
        assert_eq!(data_span(0.0), 0.0);
        assert!((data_span(0.4) - 0.5).abs() < 1e-12);
        assert_eq!((data_span(0.8), data_span(0.91)), (1.0, 1.0));
    }

    #[test]
    fn the_automatic_ashift_follows_the_physical_sector_up_to_16_kib() {
        let r = |t: &str| t.parse().unwrap();
        assert_eq!(auto_ashift(512, 4096, r("2.2")), 12);
        assert_eq!(auto_ashift(512, 16384, r("2.2")), 14);
        // 64 KiB physical sectors: past zfs_vdev_max_auto_ashift, the logical one is kept.
        assert_eq!(auto_ashift(512, 65536, r("2.2")), 9);
        assert_eq!(auto_ashift(4096, 65536, r("2.2")), 12);
        // Before ZoL 0.6 (FreeBSD 9) the logical sector decided.
        assert_eq!(auto_ashift(512, 4096, r("freebsd-9.0")), 9);
    }
}
