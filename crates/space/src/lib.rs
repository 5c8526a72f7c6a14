//! OpenZFS space arithmetic: what `zpool list` and `zfs list` show, and what data really costs.
//!
//! One file per concept, as OpenZFS has them: `label` (leaf reserves, Linux whole-disk
//! partitioning, 256 KiB alignment), `mirror`, `raidz`, `draid` and `vdev` (top-level asize and
//! block asize), `raidz_expansion` (a raidz vdev widened by zpool attach), `metaslab`,
//! `deflate`, `slop`, `usage` (the real cost of files), `release` (every rule that differs
//! between ZFS releases, a release's `Profile`), `spa` (the pool's space, group by group: the
//! pipeline below) and `report` (what a person reads).
//!
//! From raw bytes to `zfs list` AVAIL (docs/zfs-internals.md §1):
//! leaf asize = align256K(device) - 4.5 MiB; vdev asize by type; metaslabs of 2^shift, the tail
//! lost; SIZE = sum of metaslab space of the non-log vdevs; dspace = normal-class metaslab space
//! less the embedded ZIL metaslab, deflated by (bytes >> 9) x ratio; AVAIL = dspace - slop - the
//! empty pool's own metadata.

mod deflate;
mod draid;
mod label;
mod legacy;
mod metaslab;
mod mirror;
mod raidz;
mod raidz_expansion;
mod release;
mod report;
mod slop;
mod spa;
mod usage;
mod vdev;

pub use deflate::{deflate_ratio, deflated};
pub use label::{leaf_space, LeafSpace};
pub use legacy::empty_pool_used as legacy_empty_pool_used;
pub use raidz_expansion::{
    raidz_expansion, ExpansionReport, Fill, Growth, PoolFigures, RecordCost, Rewrite, StepReport,
};
pub use release::{
    EmptyPoolUsed, GptRule, LabelRule, MetaslabSizing, Profile, RuleChange, SlopRule, WholeDisk,
    RULE_CHANGES,
};
pub use report::{size_words, zfs_nicenum, BreakdownLine, Op, SpaceReport};
pub use spa::{
    capacity_of, file_cost, file_cost_with, pool_capacity, pool_groups, pool_space, pool_space_on,
    Capacity, GroupSpace, PhysicalSector,
};
pub use usage::{Compression, FileCost, RecordEfficiency};
pub use vdev::{block_asize, vdev_asize};

use std::fmt;

/// Why a pool's space could not be computed. Each reads as one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpaceError {
    /// A leaf (after partitioning and alignment) is below SPA_MINDEVSIZE.
    DeviceTooSmall {
        /// The leaf's size after partitioning and alignment.
        bytes: u64,
        /// SPA_MINDEVSIZE (64 MiB).
        min: u64,
    },
    /// A dRAID child cannot hold the 32 MiB reserve and one group of rows.
    DraidTooSmall {
        /// The layout as written.
        layout: String,
        /// Each child's asize.
        child_asize: u64,
    },
    /// A top-level vdev (a dRAID of small children) below SPA_MINDEVSIZE less the labels:
    /// vdev_open refuses it (EOVERFLOW).
    VdevTooSmall {
        /// The layout as written.
        layout: String,
        /// The vdev's asize.
        asize: u64,
        /// The least vdev_open takes.
        min: u64,
    },
    /// A logical sector size that is not a power of two from 512 to 65536 bytes.
    BadSector(u32),
    /// An ashift outside the release's range.
    Ashift {
        /// The ashift given.
        ashift: u8,
        /// The release's smallest (ASHIFT_MIN).
        min: u8,
        /// The release's largest (ASHIFT_MAX).
        max: u8,
    },
    /// 2^ashift below the disk's logical sector: the disk cannot address such sectors.
    AshiftBelowSector {
        /// The ashift given.
        ashift: u8,
        /// The disk's logical sector, bytes.
        sector: u32,
    },
    /// The profile's ZFS has no such vdev type.
    Unsupported {
        /// The vdev type, as written.
        what: String,
        /// The profile's name.
        profile: &'static str,
    },
    /// A recordsize that is not a power of two from 512 B to the release's largest block.
    Recordsize {
        /// The recordsize given.
        recordsize: u64,
        /// SPA_MAXBLOCKSIZE of the release.
        max: u64,
    },
    /// Only log, special or dedup vdevs: nowhere for data.
    NoNormalVdev,
    /// A pool whose bytes overflow 64 bits.
    TooLarge,
    /// A file whose blocks cost more than 2^64 bytes.
    FileTooLarge {
        /// The file's logical size.
        file_bytes: u64,
    },
    /// A raidz expansion that cannot be made, in one sentence.
    Expansion(String),
}

impl fmt::Display for SpaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use model::units::format_bytes;
        match self {
            SpaceError::DeviceTooSmall { bytes, min } => write!(
                f,
                "a device of {bytes} bytes ({}) is too small: ZFS needs at least {} per device after partitioning and 256 KiB alignment",
                format_bytes(*bytes),
                report::size_words(*min)
            ),
            SpaceError::DraidTooSmall { layout, child_asize } => write!(
                f,
                "{layout}: children of {} are too small for dRAID's 32 MiB reserve and one full group of 16 MiB rows",
                format_bytes(*child_asize)
            ),
            SpaceError::VdevTooSmall { layout, asize, min } => write!(
                f,
                "{layout}: a top-level vdev of {} is too small: ZFS needs at least {} (64 MiB less the labels)",
                format_bytes(*asize),
                format_bytes(*min)
            ),
            SpaceError::BadSector(s) => write!(
                f,
                "logical sector of {s} bytes: expected a power of two from 512 to 65536"
            ),
            SpaceError::Ashift { ashift, min, max } => {
                write!(f, "ashift {ashift} is out of range: ZFS takes {min} to {max}")
            }
            SpaceError::AshiftBelowSector { ashift, sector } => write!(
                f,
                "ashift {ashift} ({}-byte sectors) is below the disk's {sector}-byte logical sector: use ashift {} or more",
                1u64 << ashift,
                sector.trailing_zeros()
            ),
            SpaceError::Unsupported { what, profile } => {
                write!(f, "{what} does not exist in the '{profile}' ZFS profile")
            }
            SpaceError::Recordsize { recordsize, max } => write!(
                f,
                "recordsize {recordsize} is not a power of two from 512 B to {}",
                report::size_words(*max)
            ),
            SpaceError::NoNormalVdev => f.write_str("the pool has no normal-class vdev to hold data"),
            SpaceError::TooLarge => f.write_str("the pool is too large to count in 64-bit bytes"),
            SpaceError::Expansion(why) => write!(f, "raidz expansion: {why}"),
            SpaceError::FileTooLarge { file_bytes } => write!(
                f,
                "a file of {file_bytes} bytes ({}) would cost more than 2^64 bytes on this pool: too large to count",
                format_bytes(*file_bytes)
            ),
        }
    }
}

impl std::error::Error for SpaceError {}
