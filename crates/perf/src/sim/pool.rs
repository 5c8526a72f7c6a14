//! The pool as the simulation sees it: the stations of the network the MVA solves, with the
//! same demands, servers and queue-dependent service (a disk's reordering, the ZIL's log
//! blocks shared by queued commits), made into a cycle of visits. A job visits the
//! application's threads, then each class of leaves (the log devices, the special vdevs'
//! leaves, the data vdevs' leaves and raidz vdevs serving a block together) as many times as
//! it issues I/Os there, each to one leaf chosen in proportion to its I/Os, then the CPU.
//! Ports, links and the media's bandwidth only bound the rate (pipes, as in the MVA); the
//! txg's writeback drains the dirty data the write throttle watches.

use super::engine::{Centre, Group, Network, Shape, Source, Stage};
use super::throttle::{Throttle, DELAY_MIN_DIRTY};
use crate::leaf::DiskTiming;
use crate::load::Loads;
use crate::release::Release;
use crate::station::{Kind, Station};
use crate::vdev;
use model::workload::{Durability, Target, Workload};
use model::{System, VdevClass};

/// The labels a job's time is counted under, in the order they are reported.
pub(crate) const LABELS: [&str; 7] = [
    "application threads",
    "write throttle",
    "log device",
    "special vdev leaves",
    "data vdev leaves",
    "raidz/dRAID vdevs",
    "CPU",
];
const THREADS: usize = 0;
const THROTTLE: usize = 1;
const LOG: usize = 2;
const SPECIAL: usize = 3;
const DATA: usize = 4;
const VDEVS: usize = 5;
const CPU: usize = 6;

/// Jobs per second the network allows (the MVA's answer), and the network to simulate.
pub(crate) struct Built {
    pub network: Network,
    pub mva_jobs_per_s: f64,
    /// Jobs in circulation.
    pub jobs: u32,
}

/// The simulation's network of `loads` and `stations` (as `predict::network` made them), on
/// `release`.
pub(crate) fn build(
    system: &System,
    workload: &Workload,
    release: &Release,
    loads: &Loads,
    stations: Vec<Station>,
    dirty_max: f64,
) -> Built {
    let mut solved = stations.clone();
    let x = crate::predict::solve(&mut solved, loads.population);
    let buffered = buffered_writes(system, workload, release, loads);
    let (centres, mut groups) = centres(system, loads, stations, buffered);
    groups.sort_by_key(|g| g.0);
    let mut stages: Vec<Stage> = Vec::new();
    let writes = loads.user_write_bytes > 0.0 && x.is_finite() && x > 0.0;
    // dmu_tx_delay holds a writer before its copy (the CPU's visit); where the CPU is only a
    // pipe (it bounds the rate, adds no queue), at the end of the cycle.
    let cpu_visited = groups.iter().any(|g| g.0 == CPU);
    for (label, members, weights) in groups {
        if label == CPU && writes {
            stages.push(Stage::Throttle(THROTTLE));
        }
        let visits = weights.iter().sum::<f64>();
        stages.push(Stage::Visit(Group::new(members, &weights, visits)));
    }
    if writes && !cpu_visited {
        stages.push(Stage::Throttle(THROTTLE));
    }
    // Buffered writers have only their own requests in flight; the population the MVA
    // circulates is then the txg's I/Os at the leaves.
    let jobs = if buffered {
        loads.outstanding.clamp(1, loads.population.max(1))
    } else {
        loads.population.max(1)
    };
    let throttle = writes.then_some(Throttle {
        dirty_max,
        bytes_per_job: loads.user_write_bytes,
        drain_bytes_per_s: x * loads.user_write_bytes,
        // A writer faster than the pool spends its steady state past the delay's start.
        initial_dirty: if buffered {
            dirty_max * DELAY_MIN_DIRTY
        } else {
            0.0
        },
    });
    Built {
        network: Network {
            centres,
            stages,
            throttle,
            labels: LABELS.len(),
            source: Source::Closed(jobs),
        },
        mva_jobs_per_s: x,
        jobs,
    }
}

/// A label, its centres and each one's visits per job.
type Members = (usize, Vec<usize>, Vec<f64>);

/// The centres a job waits at, and each label's members with their visits per job. A
/// buffered writer waits at none of the leaves: the txg writes its records later.
fn centres(
    system: &System,
    loads: &Loads,
    mut stations: Vec<Station>,
    buffered: bool,
) -> (Vec<Centre>, Vec<Members>) {
    let class = leaf_classes(system);
    let mut centres = Vec::new();
    let mut groups: Vec<Members> = Vec::new();
    for s in stations.drain(..).filter(|s| !s.pipe) {
        if buffered && !matches!(s.kind, Kind::Thread | Kind::Cpu) {
            continue;
        }
        let (label, visits, leaf) = placement(system, loads, &class, &s);
        let (service, shape) = service(system, &s, visits, leaf);
        centres.push(Centre {
            label,
            servers: s.servers.max(1),
            mean_s: service,
            shape,
        });
        match groups.iter_mut().find(|g| g.0 == label) {
            Some(g) => {
                g.1.push(centres.len() - 1);
                g.2.push(visits);
            }
            None => groups.push((label, vec![centres.len() - 1], vec![visits])),
        }
    }
    (centres, groups)
}

/// Writes the application does not wait for: they return once copied into the ARC's dirty
/// buffers (no O_SYNC or fsync, and no O_DIRECT the release honours: before 2.3, and for a
/// write of part of a record, zfs_write copies O_DIRECT writes into the ARC as any other,
/// as the MVA's `Release::direct_writes` says), and the txg writes them later. A raw device
/// honours O_DIRECT always.
fn buffered_writes(system: &System, w: &Workload, release: &Release, loads: &Loads) -> bool {
    let raw = matches!(w.target, Target::RawDisk { .. });
    let direct = w.direct
        && (raw
            || (system.pool.datasets.first())
                .is_some_and(|d| release.direct_writes(w, d.recordsize)));
    loads.user_write_bytes > 0.0
        && loads.user_read_bytes <= 0.0
        && matches!(w.durability, Durability::None | Durability::AtEnd)
        && !direct
}

/// Each disk's vdev class (log, special, or data), by index into `system.disks`.
fn leaf_classes(system: &System) -> Vec<usize> {
    let mut out = vec![DATA; system.disks.len()];
    for (class, label) in [(VdevClass::Log, LOG), (VdevClass::Special, SPECIAL)] {
        for v in vdev::vdevs(system, class).unwrap_or_default() {
            for leaf in v.leaves {
                if let Some(c) = out.get_mut(leaf) {
                    *c = label;
                }
            }
        }
    }
    out
}

/// Where a station's time is counted and how many visits a job makes to it: a leaf's I/Os
/// per job, a vdev's blocks, one visit elsewhere; and the leaf (or a leaf of the vdev) whose
/// mechanics spread its service.
fn placement(
    system: &System,
    loads: &Loads,
    class: &[usize],
    s: &Station,
) -> (usize, f64, Option<usize>) {
    let ones = |v: f64| if v > 0.0 { v } else { 1.0 };
    match s.kind {
        Kind::Disk => system
            .disks
            .iter()
            .position(|d| d.name == s.resource)
            .map(|i| {
                let l = &loads.disks[i];
                (class[i], ones(l.read_ops + l.write_ops), Some(i))
            })
            .unwrap_or((DATA, 1.0, None)),
        Kind::Vdev => loads
            .vdevs
            .iter()
            .find(|v| v.name == s.resource)
            .map(|v| (VDEVS, ones(v.blocks), v.members.first().copied()))
            .unwrap_or((VDEVS, 1.0, None)),
        Kind::Thread => (THREADS, 1.0, None),
        _ => (CPU, 1.0, None),
    }
}

/// Mean service per visit (by the jobs there), and its spread: a hard disk's rotation is
/// uniform over one revolution, the rest of its time (seek, transfer, command) taken as
/// fixed; flash answers in its data-sheet latency, the CPU in its cycles.
fn service(system: &System, s: &Station, visits: f64, leaf: Option<usize>) -> (Vec<f64>, Shape) {
    let per_visit = |d: f64| d / visits;
    let mean_s: Vec<f64> = if s.by_jobs_s.is_empty() {
        vec![per_visit(s.demand_s)]
    } else {
        s.by_jobs_s.iter().copied().map(per_visit).collect()
    };
    let rotating = leaf
        .and_then(|i| system.disks.get(i))
        .map(|d| DiskTiming::new(&d.model, 0.0))
        .filter(DiskTiming::is_rotating);
    let shape = match rotating {
        Some(t) => Shape::Uniform {
            spread: (t.revolution_s() / 2.0 / mean_s[0]).min(1.0),
        },
        None => Shape::Det,
    };
    (mean_s, shape)
}
