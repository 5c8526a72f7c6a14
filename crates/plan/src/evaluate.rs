//! One candidate through the three engines: space, performance, reliability.

use crate::enumerate::Candidate;
use crate::error::PlanError;
use crate::evaluation::{Evaluation, WorkloadFigures};
use crate::machine;
use model::system::System;
use model::Workload;

/// Hours from a disk failing to its replacement being in the slot when no hot spare takes
/// over at once: three days to notice, fetch a disk and swap it. A policy, not a fact.
pub const REPLACEMENT_HOURS: f64 = 72.0;

/// A workload with the label it is shown under (the text the user wrote, parameters and all).
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledWorkload {
    pub label: String,
    pub workload: Workload,
}

/// What every candidate is measured by.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Sequential read, sequential write and random read first (what `--need` bounds), then
    /// any others.
    pub workloads: Vec<LabelledWorkload>,
    /// Share of the pool's space in use (0-1): what a resilver has to rebuild.
    pub fill: f64,
    /// The mission over which the loss probability is given.
    pub years: f64,
}

/// The workloads `--need` bounds, in order: one `dd` reader, one `dd` writer, and 4 KiB
/// random reads with 32 in flight (a loaded server rather than one synchronous reader, whose
/// rate would be one disk's whatever the layout). A choice, not a fact.
pub const STANDARD_WORKLOADS: [&str; 3] = ["dd-read", "dd-write", "fio-randread:qd=32"];

impl Settings {
    /// The standard workloads, at `fill` over a mission of `years`.
    pub fn standard(fill: f64, years: f64) -> Settings {
        Settings {
            workloads: STANDARD_WORKLOADS
                .iter()
                .map(|w| LabelledWorkload::parse(w).expect("the standard workloads parse"))
                .collect(),
            fill,
            years,
        }
    }
}

impl LabelledWorkload {
    /// A workload from its command-line text (`fio-randread:qd=32`), labelled with that text.
    pub fn parse(spec: &str) -> Result<LabelledWorkload, model::WorkloadError> {
        Ok(LabelledWorkload {
            label: spec.to_string(),
            workload: Workload::parse(spec)?,
        })
    }
}

/// Evaluates `candidate` on `system` (whose disks it must occupy exactly).
pub fn evaluate(
    system: &System,
    candidate: &Candidate,
    settings: &Settings,
) -> Result<Evaluation, PlanError> {
    let planned = machine::with_candidate(system, candidate)?;
    let engine = |message: String| PlanError::Engine {
        layout: candidate.layout.to_string(),
        message,
    };
    let capacity = space::pool_capacity(&planned.pool, &space::Profile::of(system.host.zfs))
        .map_err(|e| engine(e.to_string()))?;
    let workloads = settings
        .workloads
        .iter()
        .map(|w| {
            perf::predict(&planned, &w.workload)
                .map(|p| WorkloadFigures {
                    workload: w.label.clone(),
                    bytes_per_s: p.throughput_bytes_per_s,
                    iops: p.iops,
                    bottleneck: p.bottleneck.sentence,
                })
                .map_err(|e| engine(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let figure = |i: usize, f: fn(&WorkloadFigures) -> f64| workloads.get(i).map_or(0.0, f);
    let risk = risk(&planned, candidate, settings).map_err(|e| engine(e.to_string()))?;
    let disk = &planned.disks[0].model;
    let usable_tb = capacity.avail_bytes as f64 / 1e12;
    Ok(Evaluation {
        candidate: candidate.clone(),
        size_bytes: capacity.size_bytes,
        avail_bytes: capacity.avail_bytes,
        read_bytes_per_s: figure(0, |w| w.bytes_per_s),
        write_bytes_per_s: figure(1, |w| w.bytes_per_s),
        random_read_iops: figure(2, |w| w.iops),
        workloads,
        degraded_hours: risk.degraded_hours,
        pool_loss_probability: risk.pool_loss,
        block_loss_probability: risk.block_loss,
        usd_per_usable_tb: disk
            .price_usd
            .filter(|_| usable_tb > 0.0)
            .map(|p| p * planned.disks.len() as f64 / usable_tb),
    })
}

struct Risk {
    degraded_hours: f64,
    pool_loss: Option<f64>,
    block_loss: Option<f64>,
}

/// What the reliability engine needs to know about a candidate on its machine.
struct Exposure {
    /// One per layout group.
    repairs: Vec<reliability::GroupRepair>,
    /// Exponential, from the disk's AFR or MTBF (`reliability::lifetime::disk_afr_pct`);
    /// `None` when it has neither.
    lifetime: Option<reliability::Lifetime>,
    /// Unrecoverable read errors per bit; a disk without the figure is taken to have none.
    uer_per_bit: f64,
}

/// Rebuilds of an idle pool at the rates `reliability::rebuild_rates` draws from the
/// performance model, and the disk's failure figures.
fn exposure(
    planned: &System,
    candidate: &Candidate,
    fill: f64,
) -> Result<Exposure, reliability::Error> {
    let disk = &planned.disks[0].model;
    let rates = reliability::rebuild_rates(planned, fill, None)?;
    let repairs = candidate
        .layout
        .groups
        .iter()
        .map(|g| reliability::group_repair(g, disk.capacity_bytes, fill, &rates))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Exposure {
        repairs,
        lifetime: reliability::lifetime::disk_lifetime(disk, None)?,
        uer_per_bit: disk.uer_per_bit.unwrap_or(0.0),
    })
}

/// The degraded window and, by the MTTDL closed form, the probabilities of losing the pool
/// and of losing blocks to unrecoverable read errors over the mission. Without a hot spare a
/// failed disk waits [`REPLACEMENT_HOURS`] before its resilver starts.
fn risk(
    planned: &System,
    candidate: &Candidate,
    settings: &Settings,
) -> Result<Risk, reliability::Error> {
    let e = exposure(planned, candidate, settings.fill)?;
    let wait_hours = if candidate.hot_spares == 0 {
        REPLACEMENT_HOURS
    } else {
        0.0
    };
    let mission_hours = reliability::montecarlo::mission_hours(settings.years)?;
    let (pool_loss, block_loss) = match e.lifetime.and_then(|l| l.mtbf_hours()) {
        Some(mtbf) => {
            let mttdl = reliability::pool_mttdl(
                &candidate.layout,
                &e.repairs,
                mtbf,
                e.uer_per_bit,
                wait_hours,
            )?;
            let within = |hours| Some(reliability::p_loss_within(hours, mission_hours));
            (
                within(mttdl.pool_loss_hours),
                within(mttdl.block_loss_hours),
            )
        }
        None => (None, None),
    };
    let degraded_hours = candidate
        .layout
        .groups
        .iter()
        .zip(&e.repairs)
        .map(|(g, r)| r.degraded_hours(reliability::repair::distributed_spares(g), 0.0))
        .fold(0.0, f64::max);
    Ok(Risk {
        degraded_hours,
        pool_loss,
        block_loss,
    })
}

/// Missions simulated to check the recommendation's closed-form loss probability: enough to
/// see losses of a few in ten thousand, few enough to stay in milliseconds.
pub const MONTE_CARLO_TRIALS: u64 = 20_000;

/// The simulation's seed: a plan is reproducible.
pub const MONTE_CARLO_SEED: u64 = 1;

/// A Monte Carlo of the evaluated candidate's disks over the mission (exponential lifetimes,
/// rebuilds of fixed length, hot spares used as they come, [`REPLACEMENT_HOURS`] to replace a
/// disk, the pool `fill` full of records of the first dataset's recordsize); `None` when the
/// disk has no failure rate.
pub fn monte_carlo(
    system: &System,
    evaluation: &Evaluation,
    settings: &Settings,
) -> Result<Option<reliability::MonteCarloReport>, PlanError> {
    let candidate = &evaluation.candidate;
    let planned = machine::with_candidate(system, candidate)?;
    let engine = |e: reliability::Error| PlanError::Engine {
        layout: candidate.layout.to_string(),
        message: e.to_string(),
    };
    let e = exposure(&planned, candidate, settings.fill).map_err(engine)?;
    let Some(lifetime) = e.lifetime else {
        return Ok(None);
    };
    let scenario = reliability::Scenario {
        layout: &candidate.layout,
        repairs: &e.repairs,
        lifetime,
        repair_time: reliability::RepairTime::Fixed,
        hot_spares: candidate.hot_spares,
        replacement_hours: REPLACEMENT_HOURS,
        uer_per_bit: e.uer_per_bit,
        allocated_bytes: settings.fill * evaluation.avail_bytes as f64,
        block_bytes: planned
            .pool
            .datasets
            .first()
            .map_or(model::pool::DEFAULT_RECORDSIZE, |d| d.recordsize) as f64,
        mission_hours: reliability::montecarlo::mission_hours(settings.years).map_err(engine)?,
    };
    reliability::simulate(&scenario, MONTE_CARLO_TRIALS, MONTE_CARLO_SEED)
        .map(Some)
        .map_err(engine)
}
