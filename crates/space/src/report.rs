//! What a person reads: the breakdown from raw bytes to AVAIL, warnings on legal but poor
//! choices, the efficiency of each record size, and numbers as `zfs list` prints them.

use crate::usage::{record_efficiency, RecordEfficiency};
use crate::vdev::{block_asize, ideal_efficiency};
use crate::{Capacity, GroupSpace, PhysicalSector, Profile, SpaceError};
use model::units::format_bytes;
use model::{Pool, VdevClass, VdevType};
use serde::Serialize;

/// How a breakdown line relates to the running figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// The starting figure.
    Start,
    /// Taken away from the running figure.
    Minus,
    /// The running figure at this point: equal to the previous total less the lines since.
    Total,
}

/// One step from raw bytes to AVAIL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BreakdownLine {
    /// How the line changes the running total.
    pub op: Op,
    /// What the line is, in a few words.
    pub label: String,
    /// Its bytes.
    pub bytes: u64,
    /// Why, in a few words.
    pub why: String,
}

/// The space report of a pool (see `crate::pool_space`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpaceReport {
    /// The ZFS rules used: `modern` or `legacy`.
    pub profile: &'static str,
    /// The profile's one-line description.
    pub profile_description: &'static str,
    /// The normal-class layout and any other classes, as layout strings.
    pub layout: String,
    /// The pool's ashift.
    pub ashift: u8,
    /// The recordsize the warnings are about.
    pub recordsize: u64,
    /// Hot spares: raw bytes that add no space.
    pub hot_spares: u32,
    /// Every disk in the pool, spares included.
    pub raw_bytes: u64,
    /// `zpool list -p` SIZE.
    pub size_bytes: u64,
    /// SIZE as `zpool list` prints it (`10.2T`).
    pub size_display: String,
    /// Deflated normal-class space: what datasets can be charged before slop.
    pub dspace_bytes: u64,
    /// The embedded ZIL metaslabs, deflated: not in dspace.
    pub embedded_log_bytes: u64,
    /// What `zfs list` holds back (spa_get_slop_space).
    pub slop_bytes: u64,
    /// APPROXIMATION (release::EmptyPoolUsed): the empty pool's own metadata.
    pub empty_pool_used_bytes: u64,
    /// `zfs list -p` AVAIL of the empty pool's root dataset.
    pub avail_bytes: u64,
    /// AVAIL as `zfs list` prints it.
    pub avail_display: String,
    /// AVAIL as a share of the raw bytes of the disks (0..1).
    pub usable_share: f64,
    /// Raw bytes to AVAIL, step by step.
    pub breakdown: Vec<BreakdownLine>,
    /// Each group of top-level vdevs, laid out.
    pub groups: Vec<GroupSpace>,
    /// What the reader should know of the sectors, the layout and the recordsize, one sentence
    /// each.
    pub warnings: Vec<String>,
    /// How well records of each size use the pool.
    #[serde(rename = "efficiency")]
    pub efficiency_by_recordsize: Vec<RecordEfficiency>,
}

/// A number as `zfs list` and `zpool list` print it (lib/libzutil zfs_nicenum): 1024-based
/// units K M G T P E, whole multiples without decimals, otherwise the most decimals (2, 1 or 0)
/// that fit in 5 characters.
pub fn zfs_nicenum(num: u64) -> String {
    const UNITS: [&str; 7] = ["", "K", "M", "G", "T", "P", "E"];
    let mut n = num;
    let mut index = 0;
    while n >= 1024 && index < 6 {
        n /= 1024;
        index += 1;
    }
    let unit = UNITS[index];
    let div = 1024u64.pow(index as u32);
    if index == 0 || num.is_multiple_of(div) {
        return format!("{n}{unit}");
    }
    let val = num as f64 / div as f64;
    for precision in (0..=2).rev() {
        let s = format!("{val:.precision$}{unit}");
        if s.len() <= 5 || precision == 0 {
            return s;
        }
    }
    unreachable!("precision 0 always returns")
}

/// Record sizes the efficiency table shows, plus the pool's own.
pub(crate) const EFFICIENCY_RECORDSIZES: [u64; 7] = [
    4 << 10,
    8 << 10,
    16 << 10,
    32 << 10,
    64 << 10,
    128 << 10,
    1 << 20,
];

/// "128 KiB" for powers of two, else bytes.
pub fn size_words(bytes: u64) -> String {
    format_bytes(bytes).replace(".00 ", " ")
}

fn line(op: Op, label: impl Into<String>, bytes: u64, why: impl Into<String>) -> BreakdownLine {
    BreakdownLine {
        op,
        label: label.into(),
        bytes,
        why: why.into(),
    }
}

/// Raw bytes of every disk of the pool, hot spares included; `TooLarge` past 2^64 bytes (every
/// other line of the breakdown is a part of it, so it is the one sum that can overflow).
fn raw_bytes(groups: &[GroupSpace], spare_bytes: u64) -> Result<u64, SpaceError> {
    groups
        .iter()
        .try_fold(spare_bytes, |sum, g| {
            leaves(g)
                .checked_mul(g.leaf.capacity_bytes)
                .and_then(|bytes| sum.checked_add(bytes))
        })
        .ok_or(SpaceError::TooLarge)
}

/// Bytes every group contributes to one category, summed.
fn total(groups: &[GroupSpace], f: impl Fn(&GroupSpace) -> u64) -> u64 {
    groups.iter().map(f).sum()
}

fn leaves(g: &GroupSpace) -> u64 {
    u64::from(g.vdevs) * u64::from(g.children)
}

/// The parity share of a normal group's space: p / w of raidz, p / (d + p) of dRAID.
fn parity_bytes(g: &GroupSpace) -> u64 {
    let (p, w) = match g.group.vtype {
        VdevType::Raidz { parity } => (parity, g.children),
        VdevType::Draid { parity, data, .. } => (parity, data + parity),
        _ => return 0,
    };
    (u128::from(g.normal_space_bytes) * u128::from(p) / u128::from(w)) as u64
}

fn breakdown(
    pool: &Pool,
    profile: &Profile,
    groups: &[GroupSpace],
    cap: &Capacity,
    raw: (u64, u64),
) -> Vec<BreakdownLine> {
    let mut out = Vec::new();
    disk_lines(&mut out, pool, groups, raw);
    vdev_lines(&mut out, groups, cap);
    deflate_lines(&mut out, profile, groups, cap);
    avail_lines(&mut out, profile, cap);
    out
}

/// "12 disks of 18.19 TiB + 2 of 3.49 TiB", spares counted with the first group's disks.
fn disk_kinds(pool: &Pool, groups: &[GroupSpace]) -> String {
    let mut kinds: Vec<(u64, u64)> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let n = leaves(g) + if i == 0 { u64::from(pool.spares) } else { 0 };
        match kinds.iter_mut().find(|k| k.0 == g.leaf.capacity_bytes) {
            Some(k) => k.1 += n,
            None => kinds.push((g.leaf.capacity_bytes, n)),
        }
    }
    let what: Vec<String> = kinds
        .iter()
        .enumerate()
        .map(|(i, (bytes, n))| {
            let disks = if i == 0 { " disks" } else { "" };
            format!("{n}{disks} of {}", format_bytes(*bytes))
        })
        .collect();
    what.join(" + ")
}

/// Raw capacity, hot spares, and what every leaf loses before it is a vdev's child.
fn disk_lines(
    out: &mut Vec<BreakdownLine>,
    pool: &Pool,
    groups: &[GroupSpace],
    (raw, spare_bytes): (u64, u64),
) {
    out.push(line(
        Op::Start,
        "raw capacity",
        raw,
        disk_kinds(pool, groups),
    ));
    if pool.spares > 0 {
        out.push(line(
            Op::Minus,
            "hot spares",
            spare_bytes,
            format!("{} idle disks wait to replace a failed one", pool.spares),
        ));
    }
    let partition = total(groups, |g| leaves(g) * g.leaf.partition_loss);
    let whole_disk = pool.vdevs.iter().any(|t| t.leaf.whole_disk);
    let why = if whole_disk && partition > 0 {
        "Linux whole disk: GPT, 1 MiB before partition 1, 8 MiB partition 9, 1 MiB end alignment"
    } else if whole_disk {
        "whole disks used raw, no partition table"
    } else {
        "file vdevs or partitions: none"
    };
    out.push(line(Op::Minus, "partitioning", partition, why));
    out.push(line(
        Op::Minus,
        "256 KiB alignment",
        total(groups, |g| leaves(g) * g.leaf.align_loss),
        "each device is used in whole 256 KiB label units",
    ));
    out.push(line(
        Op::Minus,
        "labels and boot area",
        total(groups, |g| leaves(g) * g.leaf.label_bytes),
        "4 labels of 256 KiB and a 3.5 MiB boot area on every disk (4.5 MiB)",
    ));
}

/// Mirror copies, dRAID's reserve, spares and rounding, and log vdevs: from the leaves'
/// asize to the top-level vdevs' asize that counts in SIZE.
fn vdev_lines(out: &mut Vec<BreakdownLine>, groups: &[GroupSpace], cap: &Capacity) {
    let mirror = total(groups, |g| match g.group.vtype {
        VdevType::Mirror => u64::from(g.vdevs) * u64::from(g.children - 1) * g.leaf.asize,
        _ => 0,
    });
    if mirror > 0 {
        out.push(line(
            Op::Minus,
            "mirror copies",
            mirror,
            "SIZE counts one side of a mirror",
        ));
    }
    if groups
        .iter()
        .any(|g| matches!(g.group.vtype, VdevType::Draid { .. }))
    {
        draid_lines(out, groups);
    }
    let log = total(groups, |g| {
        if g.class == VdevClass::Log {
            u64::from(g.vdevs) * g.vdev_asize
        } else {
            0
        }
    });
    if log > 0 {
        out.push(line(
            Op::Minus,
            "log vdevs",
            log,
            "a separate intent log is not part of SIZE",
        ));
    }
    metaslab_lines(out, groups);
    out.push(line(
        Op::Total,
        "zpool list SIZE",
        cap.size_bytes,
        "raw space of the vdevs, parity included",
    ));
}

/// dRAID's reserve and rows, distributed spares and whole groups (vdev_draid_open).
fn draid_lines(out: &mut Vec<BreakdownLine>, groups: &[GroupSpace]) {
    let v = |g: &GroupSpace, x: u64| u64::from(g.vdevs) * x;
    out.push(line(
        Op::Minus,
        "dRAID reserve and rows",
        total(groups, |g| v(g, g.draid_reserve_bytes)),
        "32 MiB kept for expansion on every child, the rest in 16 MiB rows",
    ));
    out.push(line(
        Op::Minus,
        "dRAID distributed spares",
        total(groups, |g| v(g, g.draid_spare_bytes)),
        "spare capacity spread over the children",
    ));
    out.push(line(
        Op::Minus,
        "dRAID whole groups",
        total(groups, |g| v(g, g.draid_group_rounding_bytes)),
        "the vdev holds whole redundancy groups of (d + p) rows",
    ));
}

/// The metaslab tail and dRAID's metaslab trim of every vdev that counts in SIZE.
fn metaslab_lines(out: &mut Vec<BreakdownLine>, groups: &[GroupSpace]) {
    let in_size = |g: &GroupSpace| g.class != VdevClass::Log;
    // A per-vdev amount summed over every vdev that counts in SIZE.
    let over_size_vdevs = |amount: fn(&GroupSpace) -> u64| {
        total(groups, |g| {
            if in_size(g) {
                u64::from(g.vdevs) * amount(g)
            } else {
                0
            }
        })
    };
    let tail = over_size_vdevs(|g| g.lost_tail_bytes);
    let shifts: Vec<String> = {
        let mut v: Vec<u32> = groups
            .iter()
            .filter(|g| in_size(g))
            .map(|g| g.metaslab_shift)
            .collect();
        v.dedup();
        v.iter().map(|s| size_words(1u64 << s)).collect()
    };
    out.push(line(
        Op::Minus,
        "metaslab tail",
        tail,
        format!(
            "only whole metaslabs of {} hold data; the rest of each vdev is lost",
            shifts.join(" / ")
        ),
    ));
    let trim = over_size_vdevs(|g| g.draid_trim_bytes);
    if trim > 0 {
        out.push(line(
            Op::Minus,
            "dRAID metaslab trim",
            trim,
            "each metaslab holds whole redundancy groups only",
        ));
    }
}

/// From SIZE to dspace: the special and dedup classes, the ZIL metaslab, parity and padding.
fn deflate_lines(
    out: &mut Vec<BreakdownLine>,
    profile: &Profile,
    groups: &[GroupSpace],
    cap: &Capacity,
) {
    let other = total(groups, |g| {
        if matches!(g.class, VdevClass::Special | VdevClass::Dedup) {
            g.size_bytes
        } else {
            0
        }
    });
    if other > 0 {
        out.push(line(
            Op::Minus,
            "special and dedup vdevs",
            other,
            "in SIZE; data there adds to AVAIL only as it is written",
        ));
    }
    // The special vdevs' ZIL metaslabs left SIZE with the rest of the special class above.
    let zil = total(groups, |g| {
        if g.is_normal() {
            u64::from(g.vdevs) * g.embedded_log_bytes
        } else {
            0
        }
    });
    out.push(line(Op::Minus, "ZIL metaslab", zil, zil_why(profile)));
    let normal: Vec<&GroupSpace> = groups.iter().filter(|g| g.is_normal()).collect();
    let parity: u64 = normal.iter().map(|g| parity_bytes(g)).sum();
    let normal_space: u64 = normal.iter().map(|g| g.normal_space_bytes).sum();
    let padding = normal_space - cap.dspace_bytes - parity;
    out.push(line(
        Op::Minus,
        "parity",
        parity,
        "p of every w sectors (raidz), p of d + p (dRAID)",
    ));
    out.push(line(
        Op::Minus,
        "padding and partial stripes",
        padding,
        format!(
            "as a 128 KiB block pays them: deflate ratio {}",
            deflate_ratios(&normal)
        ),
    ));
    out.push(line(
        Op::Total,
        "deflated space",
        cap.dspace_bytes,
        "what datasets can be charged for",
    ));
}

/// The normal groups' deflate ratios (vdev_set_deflate_ratio: the share of a 128 KiB block's
/// allocation that is data, in 512ths), a run of equal ones said once.
fn deflate_ratios(normal: &[&GroupSpace]) -> String {
    let mut v: Vec<u64> = normal.iter().map(|g| g.deflate_ratio).collect();
    v.dedup();
    let ratios: Vec<String> = v.iter().map(|r| format!("{r}/512")).collect();
    ratios.join(", ")
}

fn zil_why(profile: &Profile) -> String {
    match profile.embedded_log_min_ms {
        Some(min) => format!(
            "each {} vdev with more than {min} metaslabs lends one to the embedded ZIL",
            if profile.embedded_log_special {
                "normal or special"
            } else {
                "normal"
            }
        ),
        None => "no embedded ZIL metaslab in this ZFS".to_string(),
    }
}

/// From dspace to AVAIL: slop and the empty pool's metadata.
fn avail_lines(out: &mut Vec<BreakdownLine>, profile: &Profile, cap: &Capacity) {
    out.push(line(Op::Minus, "slop", cap.slop_bytes, slop_why(profile)));
    out.push(line(
        Op::Minus,
        "empty pool metadata",
        cap.empty_pool_used_bytes,
        "MOS, space maps, root file system (approximation)",
    ));
    out.push(line(
        Op::Total,
        "zfs list AVAIL",
        cap.avail_bytes,
        "what the empty root dataset offers",
    ));
}

fn slop_why(profile: &Profile) -> String {
    match profile.slop {
        crate::release::SlopRule::OpenZfs { shift, min, max } => format!(
            "1/{} of the pool{}, at least {} (or half the pool){}",
            1u64 << shift,
            if profile.embedded_log_min_ms.is_some() {
                ", less the ZIL metaslab up to half"
            } else {
                ""
            },
            size_words(min),
            if max == u64::MAX {
                String::new()
            } else {
                format!(", at most {}", size_words(max))
            }
        ),
        crate::release::SlopRule::Legacy { shift, min } => {
            format!(
                "1/{} of the pool, at least {}",
                1u64 << shift,
                size_words(min)
            )
        }
        crate::release::SlopRule::Custom(_) => {
            "held back so frees and the ZIL can proceed".to_string()
        }
    }
}

/// Widths of raidz-`parity` from parity + 2 to 24 (or `near`) that waste nothing beyond
/// parity for a record of `recordsize` at `ashift`.
fn clean_widths(parity: u32, ashift: u8, recordsize: u64, near: u32) -> Vec<u32> {
    (parity + 2..=near.max(24))
        .filter(|&w| {
            let asize = crate::raidz::raidz_asize(recordsize, ashift, w, parity) as f64;
            let ideal = f64::from(w - parity) / f64::from(w);
            recordsize as f64 / asize >= ideal * 0.999
        })
        .collect()
}

/// An ashift below a disk's physical sector (a 512e Advanced Format disk at ashift 9): the
/// drive must read, merge and rewrite a whole physical sector for every smaller or misaligned
/// write (docs/zfs-internals.md §5). Each disk model is named once.
fn sector_warnings(ashift: u8, physical: &[PhysicalSector]) -> impl Iterator<Item = String> + '_ {
    let sector = 1u64 << ashift;
    physical
        .iter()
        .enumerate()
        .filter(move |&(i, p)| {
            u64::from(p.bytes) > sector && !physical[..i].iter().any(|q| q.disk == p.disk)
        })
        .map(move |(_, p)| {
            format!(
                "ashift {ashift} ({sector} B) is below the {} B physical sector of {}: every write smaller than {} B or not aligned to it costs the drive a read-modify-write of the whole sector; use ashift {}",
                p.bytes,
                p.disk,
                p.bytes,
                p.bytes.trailing_zeros()
            )
        })
}

fn warnings(
    pool: &Pool,
    groups: &[GroupSpace],
    cap: &Capacity,
    recordsize: u64,
    raw: u64,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for top in &pool.vdevs {
        out.extend(top.layout.warnings());
    }
    let mut seen = Vec::new();
    for g in groups {
        if seen.contains(&g.group) {
            continue;
        }
        seen.push(g.group);
        out.extend(padding_warning(g, pool.ashift, recordsize));
    }
    out.extend(fixed_cost_warning(groups, cap, raw));
    out
}

/// A group whose record of `recordsize` loses 1% or more to padding and partial stripes.
fn padding_warning(g: &GroupSpace, ashift: u8, recordsize: u64) -> Option<String> {
    let rs = size_words(recordsize);
    let asize = block_asize(&g.group, ashift, recordsize);
    let eff = recordsize as f64 / asize as f64;
    let ideal = ideal_efficiency(&g.group);
    let waste = 1.0 - eff / ideal;
    if waste < 0.01 {
        return None;
    }
    let name = g.group.to_string();
    let name = name.rsplit(' ').next().unwrap_or(&name);
    match g.group.vtype {
        VdevType::Raidz { parity } => {
            let (d, p, pad) = crate::raidz::raidz_sectors(recordsize, ashift, g.children, parity);
            let hint = clean_width_hint(parity, ashift, recordsize, g.children);
            Some(format!(
                "{name} at ashift {ashift}: a {rs} record takes {} ({d} data, {p} parity, {pad} padding sectors), {:.1}% data against {:.1}% for {} data disks of {}: {:.1}% of the space is lost to padding and partial stripes{hint}",
                size_words(asize),
                eff * 100.0,
                ideal * 100.0,
                g.children - parity,
                g.children,
                waste * 100.0
            ))
        }
        VdevType::Draid { parity, data, .. } => Some(format!(
            "{name} at ashift {ashift}: every block fills whole rows of {data} data and {parity} parity sectors ({}), so a {rs} record takes {}: {:.1}% data against {:.1}%",
            size_words(u64::from(data + parity) << ashift),
            size_words(asize),
            eff * 100.0,
            ideal * 100.0
        )),
        _ => None,
    }
}

/// "; raidz1-3 and raidz1-5 waste nothing at this recordsize": the nearest clean widths.
fn clean_width_hint(parity: u32, ashift: u8, recordsize: u64, children: u32) -> String {
    let better = clean_widths(parity, ashift, recordsize, children);
    let below = better.iter().rev().find(|&&w| w < children);
    let above = better.iter().find(|&&w| w > children);
    let nearest: Vec<String> = below
        .into_iter()
        .chain(above)
        .map(|w| format!("raidz{parity}-{w}"))
        .collect();
    match nearest.len() {
        0 => String::new(),
        1 => format!("; {} wastes nothing at this recordsize", nearest[0]),
        _ => format!(
            "; {} waste nothing at this recordsize",
            nearest.join(" and ")
        ),
    }
}

/// Fixed costs that do not grow with the disk: partitions, labels, alignment, metaslab tails
/// and trims, dRAID reserves, and slop beyond its 1/32 (the floor), when over 5% of raw.
fn fixed_cost_warning(groups: &[GroupSpace], cap: &Capacity, raw: u64) -> Option<String> {
    let fixed: u64 = groups
        .iter()
        .map(|g| {
            leaves(g) * (g.leaf.partition_loss + g.leaf.align_loss + g.leaf.label_bytes)
                + u64::from(g.vdevs)
                    * (g.lost_tail_bytes + g.draid_trim_bytes + g.draid_reserve_bytes)
        })
        .sum::<u64>()
        + cap.slop_bytes.saturating_sub(cap.dspace_bytes >> 5);
    (raw > 0 && fixed as f64 > 0.05 * raw as f64).then(|| {
        format!(
            "small disks: fixed overheads (partitions, labels, metaslab tails, the slop floor) take {} of {} raw, {:.1}%",
            format_bytes(fixed),
            format_bytes(raw),
            fixed as f64 * 100.0 / raw as f64
        )
    })
}

/// The layout string of the whole pool, classes named as `zpool create` names them.
fn pool_layout(pool: &Pool) -> String {
    let mut parts = Vec::new();
    for top in &pool.vdevs {
        let prefix = match top.class {
            model::VdevClass::Normal => "",
            model::VdevClass::Special => "special ",
            model::VdevClass::Dedup => "dedup ",
            model::VdevClass::Log => "log ",
        };
        parts.push(format!("{prefix}{}", top.layout));
    }
    if pool.spares > 0 {
        parts.push(format!("spare x{}", pool.spares));
    }
    parts.join(" + ")
}

/// Assembles the report (see `crate::pool_space`).
pub(crate) fn build(
    pool: &Pool,
    profile: &Profile,
    groups: Vec<GroupSpace>,
    cap: Capacity,
    recordsize: u64,
    physical: &[PhysicalSector],
) -> Result<SpaceReport, SpaceError> {
    let spare_leaf = groups
        .iter()
        .find(|g| g.is_normal())
        .map(|g| g.leaf.capacity_bytes)
        .unwrap_or(0);
    let spare_bytes = u64::from(pool.spares)
        .checked_mul(spare_leaf)
        .ok_or(SpaceError::TooLarge)?;
    let raw = raw_bytes(&groups, spare_bytes)?;
    let mut sizes: Vec<u64> = EFFICIENCY_RECORDSIZES
        .iter()
        .copied()
        .filter(|&r| r <= profile.max_recordsize)
        .collect();
    if !sizes.contains(&recordsize) {
        sizes.push(recordsize);
        sizes.sort_unstable();
    }
    let efficiency = sizes
        .into_iter()
        .map(|r| record_efficiency(&groups, pool.ashift, r, cap.avail_bytes))
        .collect();
    Ok(SpaceReport {
        profile: profile.name,
        profile_description: profile.description,
        layout: pool_layout(pool),
        ashift: pool.ashift,
        recordsize,
        hot_spares: pool.spares,
        raw_bytes: raw,
        size_bytes: cap.size_bytes,
        size_display: zfs_nicenum(cap.size_bytes),
        dspace_bytes: cap.dspace_bytes,
        embedded_log_bytes: cap.embedded_log_bytes,
        slop_bytes: cap.slop_bytes,
        empty_pool_used_bytes: cap.empty_pool_used_bytes,
        avail_bytes: cap.avail_bytes,
        avail_display: zfs_nicenum(cap.avail_bytes),
        usable_share: cap.avail_bytes as f64 / raw.max(1) as f64,
        breakdown: breakdown(pool, profile, &groups, &cap, (raw, spare_bytes)),
        warnings: sector_warnings(pool.ashift, physical)
            .chain(warnings(pool, &groups, &cap, recordsize, raw))
            .collect(),
        groups,
        efficiency_by_recordsize: efficiency,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nicenum_like_zfs() {
        assert_eq!(zfs_nicenum(0), "0");
        assert_eq!(zfs_nicenum(1023), "1023");
        assert_eq!(zfs_nicenum(1024), "1K");
        assert_eq!(zfs_nicenum(1536), "1.50K");
        assert_eq!(zfs_nicenum(10239), "10.0K");
        assert_eq!(zfs_nicenum(1_065_151_889_408), "992G");
        assert_eq!(zfs_nicenum(128 << 30), "128G");
        assert_eq!(zfs_nicenum(1_999_000_000_000), "1.82T");
        assert_eq!(zfs_nicenum(11_250_000_000_000), "10.2T");
    }

    #[test]
    fn ashift_below_the_physical_sector_is_named_once_per_disk() {
        let red = |bytes| PhysicalSector {
            disk: "wd-red-plus-4tb".into(),
            bytes,
        };
        let ssd = PhysicalSector {
            disk: "samsung-pm893-3.84tb".into(),
            bytes: 512,
        };
        let at9: Vec<String> = sector_warnings(9, &[red(4096), red(4096), ssd.clone()]).collect();
        assert_eq!(
            at9,
            ["ashift 9 (512 B) is below the 4096 B physical sector of wd-red-plus-4tb: every write smaller than 4096 B or not aligned to it costs the drive a read-modify-write of the whole sector; use ashift 12"]
        );
        assert_eq!(sector_warnings(12, &[red(4096), ssd]).count(), 0);
        assert_eq!(sector_warnings(12, &[red(8192)]).count(), 1);
    }
}
