//! The pool's space, as spa_update_dspace and metaslab_init build it: each group of top-level
//! vdevs from leaf asize through vdev asize and metaslabs to its SIZE and deflated dspace, then
//! the pool's SIZE and AVAIL (less slop and the empty pool's metadata), and the file costs and
//! reports built on them.

use crate::label::{self, LeafSpace};
use crate::release::{self, Profile};
use crate::report::{self, SpaceReport};
use crate::usage::{self, Compression, FileCost};
use crate::{deflate, draid, metaslab, slop, vdev, SpaceError};
use model::{Pool, VdevClass, VdevGroup, VdevType};
use serde::Serialize;

/// One group of identical top-level vdevs as the pool lays it out. Sizes marked "per vdev"
/// are for one top-level vdev; the others are for the whole group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupSpace {
    /// The allocation class the group serves.
    pub class: VdevClass,
    /// The group as a layout string (`3x raidz1-5`).
    pub layout: String,
    /// The group as the model holds it.
    #[serde(skip)]
    pub group: VdevGroup,
    /// Top-level vdevs in the group.
    pub vdevs: u32,
    /// Leaves in each vdev.
    pub children: u32,
    /// One leaf: raw capacity to leaf asize.
    pub leaf: LeafSpace,
    /// Per vdev: asize of the top-level vdev.
    pub vdev_asize: u64,
    /// Per vdev, dRAID only: the 32 MiB reserve and 16 MiB row rounding of every child.
    pub draid_reserve_bytes: u64,
    /// Per vdev, dRAID only: the distributed spares.
    pub draid_spare_bytes: u64,
    /// Per vdev, dRAID only: the rounding down to whole groups.
    pub draid_group_rounding_bytes: u64,
    /// Per vdev: log2 of the metaslab size.
    pub metaslab_shift: u32,
    /// Per vdev: 2^metaslab_shift, bytes.
    pub metaslab_size: u64,
    /// Per vdev.
    pub metaslab_count: u64,
    /// Per vdev: the summed size of its metaslabs (dRAID trims each to whole groups).
    pub metaslab_space: u64,
    /// Per vdev: asize past the last whole metaslab.
    pub lost_tail_bytes: u64,
    /// Per vdev, dRAID only: what trimming metaslabs to whole groups loses.
    pub draid_trim_bytes: u64,
    /// Per vdev: asize outside the metaslabs (the tail and the dRAID trim).
    pub lost_bytes: u64,
    /// Per vdev: metaslabs given to the embedded ZIL (0 or 1).
    pub embedded_log_metaslabs: u64,
    /// Per vdev: their size, bytes.
    pub embedded_log_bytes: u64,
    /// In 1/512 units: 512 = no parity (mirror, disk).
    pub deflate_ratio: u64,
    /// Whole group: what it adds to `zpool list` SIZE (0 for log vdevs).
    pub size_bytes: u64,
    /// Whole group, normal class only: metaslab space less the ZIL metaslabs, raw.
    pub normal_space_bytes: u64,
    /// Whole group, normal class only: that space deflated (its share of dspace).
    pub dspace_bytes: u64,
    /// Whole group: the ZIL metaslabs deflated (normal vdevs, and special ones from 2.4).
    pub embedded_log_dspace: u64,
}

impl GroupSpace {
    /// Whether it holds data (the normal class).
    pub fn is_normal(&self) -> bool {
        self.class == VdevClass::Normal
    }
}

fn check_ashift(ashift: u8, profile: &Profile) -> Result<(), SpaceError> {
    if ashift < profile.ashift_min || ashift > profile.ashift_max {
        return Err(SpaceError::Ashift {
            ashift,
            min: profile.ashift_min,
            max: profile.ashift_max,
        });
    }
    Ok(())
}

pub(crate) fn check_recordsize(recordsize: u64, profile: &Profile) -> Result<(), SpaceError> {
    if !recordsize.is_power_of_two() || recordsize < 512 || recordsize > profile.max_recordsize {
        return Err(SpaceError::Recordsize {
            recordsize,
            max: profile.max_recordsize,
        });
    }
    Ok(())
}

/// The summed size of a vdev's `count` metaslabs of 2^shift bytes, and the size of metaslab 0
/// (the one an embedded log takes): dRAID trims each to whole rows (vdev_op_metaslab_init).
fn metaslab_space(group: &VdevGroup, count: u64, shift: u32, ashift: u8) -> (u64, u64) {
    match group.vtype {
        VdevType::Draid { parity, data, .. } => {
            draid::draid_metaslab_space(count, shift, draid::metaslab_align(data, parity, ashift))
        }
        _ => (count << shift, if count > 0 { 1u64 << shift } else { 0 }),
    }
}

/// The group as a layout string: `stripe-N` for plain disks, else as written (`3x raidz1-5`).
fn group_name(group: &VdevGroup) -> String {
    if let VdevType::Disk = group.vtype {
        format!("stripe-{}", group.count)
    } else {
        group.to_string()
    }
}

/// One top-level vdev's asize on leaves of `leaf` asize, refused as vdev_open refuses it.
fn top_asize(group: &VdevGroup, leaf: &LeafSpace, profile: &Profile) -> Result<u64, SpaceError> {
    let asize = vdev::vdev_asize(group, leaf.asize).ok_or_else(|| match group.vtype {
        // The children's bytes summed pass 2^64: too large, not too small.
        VdevType::Draid { .. } if u64::from(group.children).checked_mul(leaf.asize).is_none() => {
            SpaceError::TooLarge
        }
        VdevType::Draid { .. } => SpaceError::DraidTooSmall {
            layout: group_name(group),
            child_asize: leaf.asize,
        },
        _ => SpaceError::TooLarge,
    })?;
    // vdev_open: a top-level vdev below SPA_MINDEVSIZE less the labels is EOVERFLOW.
    let min_top = profile.label.min_device - profile.label.start - profile.label.end;
    if group.vtype != VdevType::Disk && asize < min_top {
        return Err(SpaceError::VdevTooSmall {
            layout: group_name(group),
            asize,
            min: min_top,
        });
    }
    Ok(asize)
}

/// Whether a vdev of `class` with `count` metaslabs gives its first one to the embedded log
/// (vdev_metaslab_init: more than zfs_embedded_slog_min_ms metaslabs; special vdevs from 2.4).
fn lends_to_zil(class: VdevClass, count: u64, profile: &Profile) -> bool {
    let lends = match class {
        VdevClass::Normal => true,
        VdevClass::Special => profile.embedded_log_special,
        _ => false,
    };
    lends && profile.embedded_log_min_ms.is_some_and(|min| count > min)
}

/// The layout of one group of top-level vdevs on leaves of `leaf` bytes.
fn group_space(
    group: &VdevGroup,
    class: VdevClass,
    leaf: LeafSpace,
    ashift: u8,
    profile: &Profile,
    named: bool,
) -> Result<GroupSpace, SpaceError> {
    // The fast path (`pool_capacity`) skips the name: formatting costs more than the arithmetic.
    let layout = if named {
        group_name(group)
    } else {
        String::new()
    };
    let vdev_asize = top_asize(group, &leaf, profile)?;
    let (reserve, spare, rounding) = match group.vtype {
        VdevType::Draid { spares, .. } => {
            draid::draid_losses(leaf.asize, group.children, spares, vdev_asize)
        }
        _ => (0, 0, 0),
    };
    let shift = metaslab::metaslab_shift(vdev_asize, &profile.metaslab);
    let count = vdev_asize >> shift;
    let whole = count << shift;
    let (space, first) = metaslab_space(group, count, shift, ashift);
    let zil = lends_to_zil(class, count, profile);
    let (zil_count, zil_bytes) = if zil { (1, first) } else { (0, 0) };
    let ratio = deflate::deflate_ratio(group, ashift);
    let totals = GroupTotals::of(class, group.count, (space, zil_bytes), ratio)?;
    Ok(GroupSpace {
        class,
        layout,
        group: *group,
        vdevs: group.count,
        children: group.children,
        leaf,
        vdev_asize,
        draid_reserve_bytes: reserve,
        draid_spare_bytes: spare,
        draid_group_rounding_bytes: rounding,
        metaslab_shift: shift,
        metaslab_size: 1u64 << shift,
        metaslab_count: count,
        metaslab_space: space,
        lost_tail_bytes: vdev_asize - whole,
        draid_trim_bytes: whole - space,
        lost_bytes: vdev_asize - space,
        embedded_log_metaslabs: zil_count,
        embedded_log_bytes: zil_bytes,
        deflate_ratio: ratio,
        size_bytes: totals.size,
        normal_space_bytes: totals.normal_space,
        dspace_bytes: totals.dspace,
        embedded_log_dspace: totals.embedded_log,
    })
}

/// What a whole group adds to the pool's figures (see the fields of [`GroupSpace`]).
struct GroupTotals {
    size: u64,
    normal_space: u64,
    dspace: u64,
    embedded_log: u64,
}

impl GroupTotals {
    /// The totals of `vdevs` top-level vdevs of `class`, each with `space` bytes of metaslabs
    /// of which `zil` go to the embedded log, deflated by `ratio`.
    fn of(
        class: VdevClass,
        vdevs: u32,
        (space, zil): (u64, u64),
        ratio: u64,
    ) -> Result<Self, SpaceError> {
        let times = |x: u64| x.checked_mul(u64::from(vdevs)).ok_or(SpaceError::TooLarge);
        // zpool list's SIZE leaves log vdevs out; only the normal class gives dspace.
        let size = if class == VdevClass::Log {
            0
        } else {
            times(space)?
        };
        let (normal_space, dspace) = if class == VdevClass::Normal {
            let normal = space - zil;
            (times(normal)?, times(deflate::deflated(normal, ratio))?)
        } else {
            (0, 0)
        };
        Ok(GroupTotals {
            size,
            normal_space,
            dspace,
            embedded_log: times(deflate::deflated(zil, ratio))?,
        })
    }
}

/// Every group of every class of the pool, checked against the profile.
pub fn pool_groups(pool: &Pool, profile: &Profile) -> Result<Vec<GroupSpace>, SpaceError> {
    groups_of(pool, profile, true)
}

fn groups_of(pool: &Pool, profile: &Profile, named: bool) -> Result<Vec<GroupSpace>, SpaceError> {
    check_ashift(pool.ashift, profile)?;
    let mut out = Vec::new();
    for top in &pool.vdevs {
        let leaf = label::leaf_space(&top.leaf, profile)?;
        if (1u64 << pool.ashift) < u64::from(top.leaf.logical_sector) {
            return Err(SpaceError::AshiftBelowSector {
                ashift: pool.ashift,
                sector: top.leaf.logical_sector,
            });
        }
        for group in &top.layout.groups {
            if matches!(group.vtype, VdevType::Draid { .. }) && !profile.draid {
                return Err(SpaceError::Unsupported {
                    what: format!("dRAID ({group})"),
                    profile: profile.name,
                });
            }
            out.push(group_space(
                group,
                top.class,
                leaf,
                pool.ashift,
                profile,
                named,
            )?);
        }
    }
    // Every vdev that opens has metaslabs of 16 MiB or more (SPA_MINDEVSIZE less the labels
    // is 59.5 MiB), so a normal vdev always gives dspace.
    if !out.iter().any(GroupSpace::is_normal) {
        return Err(SpaceError::NoNormalVdev);
    }
    Ok(out)
}

fn sum(groups: &[GroupSpace], f: impl Fn(&GroupSpace) -> u64) -> Result<u64, SpaceError> {
    groups
        .iter()
        .try_fold(0u64, |acc, g| acc.checked_add(f(g)))
        .ok_or(SpaceError::TooLarge)
}

/// The two figures a pool shows: `zpool list -p` SIZE and `zfs list -p` AVAIL of the empty
/// pool's root dataset, with what lies between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Capacity {
    /// `zpool list -p` SIZE.
    pub size_bytes: u64,
    /// Normal-class deflated space without the embedded ZIL metaslabs.
    pub dspace_bytes: u64,
    /// The embedded ZIL metaslabs, deflated.
    pub embedded_log_bytes: u64,
    /// What `zfs list` holds back (spa_get_slop_space).
    pub slop_bytes: u64,
    /// The empty pool's own metadata (an approximation: see `release::EmptyPoolUsed`).
    pub empty_pool_used_bytes: u64,
    /// `zfs list -p` AVAIL of the empty pool's root dataset.
    pub avail_bytes: u64,
}

/// What the empty pool's metadata takes (the root dataset's USED), charged on `first`.
fn empty_pool_used(first: &GroupSpace, ashift: u8, profile: &Profile) -> u64 {
    match profile.empty_pool_used {
        release::EmptyPoolUsed::Blocks { blocks, psize } => {
            let asize = vdev::block_asize(&first.group, ashift, psize);
            blocks * deflate::deflated(asize, first.deflate_ratio)
        }
        release::EmptyPoolUsed::Bytes(b) => b,
        release::EmptyPoolUsed::Custom(f) => {
            let asize = vdev::block_asize(&first.group, ashift, 1);
            f(ashift, asize, first.deflate_ratio)
        }
    }
}

/// SIZE and AVAIL from the groups of a pool.
pub fn capacity_of(
    groups: &[GroupSpace],
    ashift: u8,
    profile: &Profile,
) -> Result<Capacity, SpaceError> {
    let size_bytes = sum(groups, |g| g.size_bytes)?;
    let dspace_bytes = sum(groups, |g| g.dspace_bytes)?;
    let embedded_log_bytes = sum(groups, |g| g.embedded_log_dspace)?;
    let slop_bytes = slop::slop_space(dspace_bytes, embedded_log_bytes, &profile.slop);
    let first = groups
        .iter()
        .find(|g| g.is_normal())
        .ok_or(SpaceError::NoNormalVdev)?;
    let empty = empty_pool_used(first, ashift, profile);
    let avail_bytes = dspace_bytes
        .saturating_sub(slop_bytes)
        .saturating_sub(empty);
    Ok(Capacity {
        size_bytes,
        dspace_bytes,
        embedded_log_bytes,
        slop_bytes,
        empty_pool_used_bytes: empty.min(dspace_bytes.saturating_sub(slop_bytes)),
        avail_bytes,
    })
}

/// SIZE and AVAIL only, without the report: the fast path for searches over many layouts.
pub fn pool_capacity(pool: &Pool, profile: &Profile) -> Result<Capacity, SpaceError> {
    let groups = groups_of(pool, profile, false)?;
    capacity_of(&groups, pool.ashift, profile)
}

/// The recordsize the report highlights: the first dataset's, else 128 KiB.
pub(crate) fn pool_recordsize(pool: &Pool) -> u64 {
    pool.datasets
        .first()
        .map(|d| d.recordsize)
        .unwrap_or(model::pool::DEFAULT_RECORDSIZE)
}

/// A disk model of the pool and its physical sector, as the catalog gives it: the pool itself
/// knows only the logical sector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhysicalSector {
    /// The disk model's catalog id.
    pub disk: String,
    /// Its physical sector, bytes.
    pub bytes: u32,
}

/// The whole space report of a pool: SIZE, AVAIL, the breakdown from raw bytes to AVAIL, each
/// group's details, warnings and the efficiency of each record size.
pub fn pool_space(pool: &Pool, profile: &Profile) -> Result<SpaceReport, SpaceError> {
    pool_space_on(pool, profile, &[])
}

/// `pool_space` on disks whose physical sectors are known: it also warns of an ashift below
/// them.
pub fn pool_space_on(
    pool: &Pool,
    profile: &Profile,
    physical: &[PhysicalSector],
) -> Result<SpaceReport, SpaceError> {
    let recordsize = pool_recordsize(pool);
    check_recordsize(recordsize, profile)?;
    let groups = pool_groups(pool, profile)?;
    let cap = capacity_of(&groups, pool.ashift, profile)?;
    report::build(pool, profile, groups, cap, recordsize, physical)
}

/// What a file of `file_bytes` written with `recordsize` costs on the pool, compression off
/// (the OpenZFS default): `allocated_bytes` (zpool ALLOC) and `used_bytes` (zfs USED).
pub fn file_cost(
    pool: &Pool,
    profile: &Profile,
    recordsize: u64,
    file_bytes: u64,
) -> Result<FileCost, SpaceError> {
    file_cost_with(pool, profile, recordsize, file_bytes, Compression::Off)
}

/// `file_cost` with a choice of compression (see `Compression`).
pub fn file_cost_with(
    pool: &Pool,
    profile: &Profile,
    recordsize: u64,
    file_bytes: u64,
    compression: Compression,
) -> Result<FileCost, SpaceError> {
    check_recordsize(recordsize, profile)?;
    let groups = groups_of(pool, profile, false)?;
    let avail = capacity_of(&groups, pool.ashift, profile)?.avail_bytes;
    usage::file_cost_on(
        &groups,
        pool.ashift,
        recordsize,
        file_bytes,
        compression,
        avail,
    )
}
