//! How long a vdev stays degraded: the bytes one rebuild must move and the time the disks
//! (and the path they share) need to move them.
//!
//! ZFS rebuilds allocated data only, not the raw disk. With a fill f of the vdev, a leaf holds
//! `share = f * leaf size` (parity and padding included; for dRAID the spare space stays
//! empty, so `f * leaf * (children - spares) / children`). A block row is `w` columns wide
//! (raidz: its width, mirror: its sides, dRAID: data + parity) and lies on `w` of the
//! vdev's `c` children:
//! - raidz resilver: every block with a column on the failed leaf is read whole from the
//!   survivors, parity included (vdev_raidz.c reads all columns for scrub and resilver I/O;
//!   verify), `(w - 1) * share` spread over `w - 1` disks; the new disk writes `share`.
//! - mirror resilver: one good copy is read, `share` spread over the surviving sides.
//! - dRAID resilver onto a new or hot-spare disk (and the rebalance after a distributed spare
//!   took over): like raidz, `(w - 1) * share` read over the `c - 1` survivors, `share`
//!   written to one disk.
//! - dRAID sequential rebuild onto a distributed spare (vdev_rebuild.c): the same reads, but
//!   the writes land on the spare space of every survivor, so each of the `c - 1` disks
//!   reads and writes its part and no single disk is the bottleneck.
//!
//! Rates come from the performance model for this I/O pattern under the queue class the
//! rebuild uses (resilver: scrub class, sequential rebuild: rebuild class, each 1..3 active
//! per leaf, docs/zfs-internals.md §2) through [`RebuildRates`]; user I/O takes its share of
//! each disk.

use crate::repair::{distributed_spares, GroupRepair};
use crate::scan::{leaf_scan, LeafScan, ScanShape};
use crate::{positive, Error};
use model::units::format_decimal;
use model::{VdevGroup, VdevType};
use perf::SharedPath;
use std::fmt;

const SECONDS_PER_HOUR: f64 = 3600.0;

/// What the performance model supplies: rates one leaf sustains for rebuild I/O.
#[derive(Debug, Clone, PartialEq)]
pub struct RebuildRates {
    /// Bytes/s one surviving leaf reads for the rebuild on an otherwise idle pool.
    pub leaf_read_bytes_per_sec: f64,
    /// Bytes/s one leaf absorbs as rebuild writes on an otherwise idle pool.
    pub leaf_write_bytes_per_sec: f64,
    /// The shared path, if any can limit.
    pub shared: Option<SharedPath>,
    /// Fraction of each disk's time taken by concurrent user I/O (0: idle pool).
    pub user_busy: f64,
    /// The blocks a healing resilver scans and what each costs (`None`: the bytes stream as
    /// one sequential read, as a dRAID sequential rebuild reads them).
    pub scan: Option<ScanShape>,
}

/// Which rebuild.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RebuildKind {
    /// Healing resilver onto one new or hot-spare disk (for dRAID also the rebalance).
    Resilver,
    /// dRAID sequential rebuild onto a distributed spare.
    SequentialRebuild,
}

/// What bounds a rebuild's time.
#[derive(Debug, Clone, PartialEq)]
pub enum Limit {
    /// Reading the surviving leaves.
    SurvivorReads,
    /// Writing the one new disk.
    NewDiskWrites,
    /// Reading and writing on every survivor (dRAID sequential rebuild).
    SurvivorReadsAndWrites,
    /// The path all disks share.
    Shared(String),
    /// The host's CPU: a zio and a checksum per block scanned.
    ScanCpu,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::SurvivorReads => f.write_str("reads from the surviving disks"),
            Limit::NewDiskWrites => f.write_str("writes to the new disk"),
            Limit::SurvivorReadsAndWrites => {
                f.write_str("reads and writes on every surviving child")
            }
            Limit::Shared(name) => write!(f, "the shared {name}"),
            Limit::ScanCpu => f.write_str("the CPU (a zio and a checksum per block)"),
        }
    }
}

/// One rebuild of one failed leaf, explained.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Rebuild {
    /// Resilver or sequential rebuild.
    pub kind: RebuildKind,
    /// Bytes read from the surviving leaves.
    pub bytes_to_read: f64,
    /// Bytes written to the new leaf or the distributed spare.
    pub bytes_to_write: f64,
    /// How long it takes, hours.
    pub hours: f64,
    /// What bounds it, in words (`reads from the surviving disks`).
    #[serde(serialize_with = "as_text")]
    pub limiting_resource: Limit,
    /// The rebuild in one sentence with its numbers.
    pub explanation: String,
}

fn as_text<S: serde::Serializer>(limit: &Limit, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(limit)
}

/// Where a group's blocks lie.
struct Geometry {
    /// Columns of one block row.
    width: u32,
    children: u32,
    /// Leaf failures the vdev survives.
    redundancy: u32,
    /// Allocated bytes on one leaf.
    share: f64,
}

fn geometry(group: &VdevGroup, leaf_bytes: u64, fill: f64) -> Result<Geometry, Error> {
    if !(0.0..=1.0).contains(&fill) {
        return Err(Error::Invalid(format!(
            "fill must be between 0 and 1, not {fill}"
        )));
    }
    let c = group.children;
    let (width, used) = match group.vtype {
        VdevType::Disk => {
            return Err(Error::NotApplicable(format!(
                "{group}: a single-disk vdev has no redundancy to rebuild from"
            )))
        }
        VdevType::Mirror | VdevType::Raidz { .. } => (c, 1.0),
        VdevType::Draid {
            parity,
            data,
            spares,
        } => (data + parity, (c - spares) as f64 / c as f64),
    };
    Ok(Geometry {
        width,
        children: c,
        redundancy: group.redundancy(),
        share: fill * leaf_bytes as f64 * used,
    })
}

/// The rebuild of one failed leaf of a vdev of `group`, whose leaves hold `leaf_bytes` each,
/// filled to `fill` (allocated / size, as `zpool list` CAP).
pub fn rebuild(
    group: &VdevGroup,
    kind: RebuildKind,
    leaf_bytes: u64,
    fill: f64,
    rates: &RebuildRates,
) -> Result<Rebuild, Error> {
    let geo = geometry(group, leaf_bytes, fill)?;
    if kind == RebuildKind::SequentialRebuild && distributed_spares(group) == 0 {
        return Err(Error::NotApplicable(format!(
            "{group}: a sequential rebuild needs a dRAID distributed spare"
        )));
    }
    let (idle, raw_read, raw_write) = checked(rates)?;
    let survivors = geo.children - 1;
    let read = if group.vtype == VdevType::Mirror {
        geo.share
    } else {
        (geo.width - 1) as f64 * geo.share
    };
    let m = Moved {
        kind,
        fill,
        read,
        per_survivor: read / survivors as f64,
        survivors,
        read_rate: raw_read * idle,
        write: geo.share,
        write_rate: raw_write * idle,
    };
    // A healing resilver scans the block tree (scan.rs); a sequential rebuild streams.
    let scan = match (&rates.scan, kind) {
        (Some(shape), RebuildKind::Resilver) => Some(leaf_scan(
            group,
            (geo.share, fill),
            m.per_survivor,
            raw_read,
            shape,
        )),
        _ => None,
    };
    let survivor_s = scan
        .as_ref()
        .map_or(m.per_survivor / m.read_rate, |s| s.disk_s / idle);
    let (seconds, limit, limit_text) = slowest(limits(&m, survivor_s, scan.as_ref(), rates));
    let hours = seconds / SECONDS_PER_HOUR;
    Ok(Rebuild {
        kind,
        bytes_to_read: m.read,
        bytes_to_write: m.write,
        hours,
        limiting_resource: limit,
        explanation: explain(group, rates, &m, scan.as_ref(), &limit_text, hours),
    })
}

/// The idle share of each disk and the leaf read and write rates, each checked.
fn checked(rates: &RebuildRates) -> Result<(f64, f64, f64), Error> {
    if !(0.0..1.0).contains(&rates.user_busy) {
        return Err(Error::Invalid(format!(
            "user I/O must leave the disks some time: busy fraction {} is not in [0, 1)",
            rates.user_busy
        )));
    }
    if let Some(path) = &rates.shared {
        positive(&path.name, path.bytes_per_s)?;
    }
    Ok((
        1.0 - rates.user_busy,
        positive("leaf rebuild read rate", rates.leaf_read_bytes_per_sec)?,
        positive("leaf rebuild write rate", rates.leaf_write_bytes_per_sec)?,
    ))
}

/// Seconds each resource needs for the rebuild `m`, whose survivors each need `survivor_s`.
fn limits(
    m: &Moved,
    survivor_s: f64,
    scan: Option<&LeafScan>,
    rates: &RebuildRates,
) -> Vec<(f64, Limit)> {
    let mut limits = match m.kind {
        RebuildKind::Resilver => vec![
            (survivor_s, Limit::SurvivorReads),
            (m.write / m.write_rate, Limit::NewDiskWrites),
        ],
        RebuildKind::SequentialRebuild => vec![(
            m.per_survivor / m.read_rate + m.write / m.survivors as f64 / m.write_rate,
            Limit::SurvivorReadsAndWrites,
        )],
    };
    if let Some(s) = scan {
        limits.push((s.cpu_s, Limit::ScanCpu));
    }
    if let Some(path) = &rates.shared {
        limits.push((
            (m.read + m.write) / path.bytes_per_s,
            Limit::Shared(path.name.clone()),
        ));
    }
    limits
}

/// What a rebuild moves, and at what rates.
struct Moved {
    kind: RebuildKind,
    fill: f64,
    read: f64,
    per_survivor: f64,
    survivors: u32,
    read_rate: f64,
    write: f64,
    write_rate: f64,
}

/// The rebuild in one sentence with its numbers.
fn explain(
    group: &VdevGroup,
    rates: &RebuildRates,
    m: &Moved,
    scan: Option<&LeafScan>,
    limit_text: &str,
    hours: f64,
) -> String {
    let (kind, fill) = (m.kind, m.fill);
    let survivors = m.survivors;
    let (what, target) = match kind {
        RebuildKind::Resilver => ("resilver", "to the new disk".to_string()),
        RebuildKind::SequentialRebuild => (
            "sequential rebuild",
            format!("to the distributed spare, spread over the {survivors} survivors"),
        ),
    };
    let load = if rates.user_busy > 0.0 {
        format!(
            "user I/O takes {:.0}% of each disk",
            rates.user_busy * 100.0
        )
    } else {
        "idle pool".to_string()
    };
    let scanned = match (scan, &rates.scan) {
        (Some(s), Some(shape)) => format!(
            " as a sorted scan of {:.1} million {} records: {:.2} million indirect-block reads \
             and {:.2} million read commands{} over {} per disk",
            s.blocks / 1e6,
            record_words(shape.recordsize),
            s.indirect_reads / 1e6,
            s.commands / 1e6,
            scattered_words(s.scattered_reads),
            format_decimal(s.span_bytes),
        ),
        _ => String::new(),
    };
    format!(
        "{what} of one leaf of {group} at {:.0}% full ({load}): reads {} ({} from each of \
         {survivors} surviving disks at {}/s{scanned}), writes {} {target} at {}/s; limited \
         by {limit_text}: {hours:.1} h",
        fill * 100.0,
        format_decimal(m.read),
        format_decimal(m.per_survivor),
        format_decimal(m.read_rate),
        format_decimal(m.write),
        format_decimal(m.write_rate),
    )
}

/// A record size as `zfs get recordsize` prints it: 16K, 128K, 1M.
fn record_words(bytes: f64) -> String {
    let kib = (bytes / 1024.0).round() as u64;
    if kib >= 1024 && kib.is_multiple_of(1024) {
        format!("{}M", kib / 1024)
    } else {
        format!("{kib}K")
    }
}

/// The longest of the `(seconds, resource)` candidates, and a text naming it. Resources
/// within 1% of the longest are named together: with equal read and write rates a raidz
/// resilver keeps every disk equally busy.
fn slowest(limits: Vec<(f64, Limit)>) -> (f64, Limit, String) {
    let seconds = limits.iter().map(|l| l.0).fold(0.0, f64::max);
    let mut bound: Vec<Limit> = limits
        .into_iter()
        .filter(|l| l.0 >= seconds * 0.99)
        .map(|l| l.1)
        .collect();
    let text = match bound.as_slice() {
        [one] => one.to_string(),
        several => {
            let names: Vec<String> = several.iter().map(Limit::to_string).collect();
            format!("{} alike", names.join(" and "))
        }
    };
    (seconds, bound.swap_remove(0), text)
}

/// Everything the MTTDL and the simulation need about repairing one vdev of `group`. A
/// single-disk vdev has nothing to rebuild: its failure is a loss, and all figures are 0.
pub fn group_repair(
    group: &VdevGroup,
    leaf_bytes: u64,
    fill: f64,
    rates: &RebuildRates,
) -> Result<GroupRepair, Error> {
    if group.vtype == VdevType::Disk {
        // Nothing to rebuild from; every read of its data is unprotected.
        return Ok(GroupRepair {
            resilver_hours: 0.0,
            sequential_rebuild_hours: 0.0,
            unprotected_read_bytes: leaf_bytes as f64 * fill,
        });
    }
    let geo = geometry(group, leaf_bytes, fill)?;
    let resilver_hours = rebuild(group, RebuildKind::Resilver, leaf_bytes, fill, rates)?.hours;
    let sequential_rebuild_hours = if distributed_spares(group) > 0 {
        rebuild(
            group,
            RebuildKind::SequentialRebuild,
            leaf_bytes,
            fill,
            rates,
        )?
        .hours
    } else {
        resilver_hours
    };
    Ok(GroupRepair {
        resilver_hours,
        sequential_rebuild_hours,
        unprotected_read_bytes: unprotected_read_bytes(&geo),
    })
}

/// Bytes a rebuild reads once `redundancy` leaves are gone: the rows that lost all their
/// redundancy, read whole. A row lies on `w` of the `c` children, so it holds all `p` failed
/// ones with chance prod_{k<p} (w-k)/(c-k) (1 for raidz and mirrors, small for wide dRAID);
/// each such row is read from its `w - p` surviving columns.
fn unprotected_read_bytes(geo: &Geometry) -> f64 {
    let (w, c, p) = (geo.width as f64, geo.children as f64, geo.redundancy);
    let all_failed_in_row: f64 = (0..p).map(|k| (w - k as f64) / (c - k as f64)).product();
    let allocated = geo.share * c;
    all_failed_in_row * allocated * (w - p as f64) / w
}

/// The reads of blocks placed apart that the scan's memory-bounded window could not sort in
/// (scan.rs), when there are any worth a word.
fn scattered_words(reads: f64) -> String {
    if reads < 5e3 {
        return String::new();
    }
    format!(
        " plus {:.2} million reads of blocks placed apart that no sorted window of the \
         scan's queues joined",
        reads / 1e6
    )
}
