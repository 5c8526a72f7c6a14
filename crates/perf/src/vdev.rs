//! The pool's top-level vdevs as I/O sees them: each with its leaves (indices into
//! `system.disks`, which fill the vdevs in order) and the share of new blocks it receives;
//! and a raidz or dRAID vdev's work per job where its disks serve a block together, which
//! makes it a station of its own.

use crate::leaf::DiskTiming;
use crate::station::{Kind, Station};
use crate::PerfError;
use model::hardware::Medium;
use model::{System, VdevClass, VdevType};

/// One top-level vdev.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Vdev {
    pub vtype: VdevType,
    pub leaves: Vec<usize>,
    /// Share of the class's new blocks it receives: metaslab allocation follows free space
    /// (metaslab.c), so an empty pool's vdevs share in proportion to their size.
    pub share: f64,
    pub name: String,
    pub rotating: bool,
}

/// The top-level vdevs of `class`, in the order the pool declares them; the disks of the
/// classes before it come first in `system.disks`.
pub(crate) fn vdevs(system: &System, class: VdevClass) -> Result<Vec<Vdev>, PerfError> {
    let mut out = Vec::new();
    let mut next = 0usize;
    for tl in &system.pool.vdevs {
        for g in &tl.layout.groups {
            for _ in 0..g.count {
                let leaves: Vec<usize> = (next..next + g.children as usize).collect();
                next += g.children as usize;
                if next > system.disks.len() {
                    return Err(PerfError::System(format!(
                        "the pool needs {} disks, the system has {}",
                        system
                            .pool
                            .vdevs
                            .iter()
                            .map(|t| t.layout.leaves())
                            .sum::<u32>(),
                        system.disks.len()
                    )));
                }
                if tl.class != class {
                    continue;
                }
                let kind = match g.vtype {
                    VdevType::Disk => "disk".to_string(),
                    VdevType::Mirror => format!("mirror-{}", g.children),
                    VdevType::Raidz { parity } => format!("raidz{parity}-{}", g.children),
                    VdevType::Draid { parity, .. } => format!("draid{parity}-{}", g.children),
                };
                let rotating = system.disks[leaves[0]].model.medium == Medium::Hdd;
                out.push(Vdev {
                    vtype: g.vtype,
                    name: format!("{kind}-{}", out.len()),
                    share: f64::from(g.data_children()) * tl.leaf.capacity_bytes as f64,
                    leaves,
                    rotating,
                });
            }
        }
    }
    let total: f64 = out.iter().map(|v| v.share).sum();
    for v in &mut out {
        v.share /= total;
    }
    Ok(out)
}

/// A raidz or dRAID vdev serving small random blocks: every data disk at once.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct VdevLoad {
    pub name: String,
    pub members: Vec<usize>,
    pub busy_s: f64,
    /// `busy_s` with 1, 2, ... blocks queued at it (see `DiskLoad`).
    pub busy_queued_s: Vec<f64>,
    /// Random blocks it reads per job.
    pub blocks: f64,
    /// Of `busy_s`, the seconds per job its slowest disk spends on other work (writes).
    pub other_s: f64,
    /// Disks each random block waits for (its data columns), or all of the vdev's disks
    /// when it serves log blocks alone.
    pub width: u32,
    /// Blocks the vdev queue lets each member serve at once (sync reads' max_active).
    pub active: u32,
    /// Random blocks whose columns fall on different disks and so are served at once
    /// (`concurrent_groups`); 1 for raidz.
    pub groups: u32,
}

/// Random blocks a striped vdev serves at once. A raidz block's columns take every disk of
/// its one group. dRAID lays its groups of data + parity columns over all the children by the
/// slice's permutation maps (vdev_draid.c, vdev_draid_map_alloc_row), so blocks of different
/// groups land on different disks: about floor((children - spares) / (data + parity)) blocks
/// at once, as zpoolconcepts(7) approximates dRAID's random IOPS.
pub(crate) fn concurrent_groups(vtype: VdevType, children: u32) -> u32 {
    match vtype {
        VdevType::Draid {
            parity,
            data,
            spares,
        } => (children.saturating_sub(spares) / (data + parity).max(1)).max(1),
        _ => 1,
    }
}

/// A load-dependent demand table of one group (`table[j - 1]`: per block with j queued)
/// spread over `groups` groups serving at once: with j blocks queued each group holds about
/// j / groups of them, and min(j, groups) complete together.
fn spread(table: &[f64], groups: u32) -> Vec<f64> {
    let g = groups as usize;
    (1..=table.len() * g)
        .map(|j| table[(j.div_ceil(g) - 1).min(table.len() - 1)] / j.min(g) as f64)
        .collect()
}

/// The stations of the vdevs whose disks work together.
pub(crate) fn stations(system: &System, loads: &[VdevLoad]) -> Vec<Station> {
    loads
        .iter()
        .map(|v| {
            // Solid-state members serve as many blocks at once as each serves requests,
            // within the vdev queue's limit.
            let servers = v
                .members
                .iter()
                .map(|&i| DiskTiming::new(&system.disks[i].model, 0.0).parallelism())
                .min()
                .unwrap_or(1)
                .min(v.active.max(1));
            let mut detail = format!("{} data disks per random block", v.width);
            if v.groups > 1 {
                detail += &format!(", {} groups at once", v.groups);
            }
            let station = Station::new(v.name.clone(), Kind::Vdev, detail, v.busy_s);
            match v.busy_queued_s.len() {
                0 | 1 => station.servers(servers * v.groups),
                _ => station.queued(&spread(&v.busy_queued_s, v.groups)),
            }
        })
        .collect()
}
