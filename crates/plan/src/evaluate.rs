//! One candidate through the three engines: space, performance, reliability.

use crate::candidate_figures::{Evaluation, LabelledWorkload, WorkloadFigures};
use crate::enumerate::Candidate;
use crate::error::{EngineError, PlanError};
use crate::placement;
use crate::policy::{REPLACEMENT_HOURS, SEED, STANDARD_WORKLOADS};
use model::system::System;

/// What every candidate is measured by.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Settings {
    /// The sequential read that `--need` bounds.
    pub read: LabelledWorkload,
    /// The sequential write that `--need` bounds.
    pub write: LabelledWorkload,
    /// The random read that `--need` bounds.
    pub random: LabelledWorkload,
    /// Any other workloads shown beside them.
    pub extra: Vec<LabelledWorkload>,
    /// Share of the pool's space in use (0-1): what a resilver has to rebuild.
    pub fill: f64,
    /// The mission over which the loss probability is given.
    pub years: f64,
    /// Yearly failure rate of a disk, percent (`--afr`); `None`: the field rate of the disk's
    /// class (`reliability::failure_figures`).
    pub afr_pct: Option<f64>,
    /// User load running during rebuilds (`--load`); `None`: an idle pool.
    pub load: Option<LabelledWorkload>,
    /// The share of the time that load runs (`--busy`; 1: always).
    pub busy: f64,
    /// The disks come from one batch (`--same-batch`): the closed form's odds are raised by the
    /// batch factor's moments (`reliability::batch_odds`), the check simulates it.
    pub same_batch: bool,
}

impl Settings {
    /// The standard workloads, at `fill` over a mission of `years`.
    pub fn standard(fill: f64, years: f64) -> Settings {
        let [read, write, random] = STANDARD_WORKLOADS
            .map(|w| LabelledWorkload::parse(w).expect("the standard workloads parse"));
        Settings {
            read,
            write,
            random,
            extra: Vec::new(),
            fill,
            years,
            afr_pct: None,
            load: None,
            busy: 1.0,
            same_batch: false,
        }
    }

    /// Every workload: read, write, random, then the others.
    pub fn workloads(&self) -> impl Iterator<Item = &LabelledWorkload> {
        [&self.read, &self.write, &self.random]
            .into_iter()
            .chain(&self.extra)
    }
}

/// The system's own normal-class layout as a candidate on its data disks (`None` when it has
/// no normal-class vdev or its leaves are not exactly the data disks).
pub(crate) fn own_candidate(system: &System) -> Option<Candidate> {
    let groups: Vec<model::VdevGroup> = system
        .pool
        .normal()
        .flat_map(|t| t.layout.groups.iter().copied())
        .collect();
    let layout = model::Layout { groups };
    let fits =
        !layout.groups.is_empty() && layout.leaves() as usize == placement::data_disks(system);
    fits.then_some(Candidate {
        layout,
        hot_spares: 0,
    })
}

/// Evaluates `candidate` on `system` (whose disks it must occupy exactly).
pub fn evaluate(
    system: &System,
    candidate: &Candidate,
    settings: &Settings,
) -> Result<Evaluation, PlanError> {
    let planned = placement::with_candidate(system, candidate)?;
    let engine = |e: EngineError| PlanError::Engine {
        layout: candidate.layout.to_string(),
        error: e,
    };
    let capacity = space::pool_capacity(&planned.pool, &space::Profile::of(system.host.zfs))
        .map_err(|e| engine(e.into()))?;
    let figures =
        |w: &LabelledWorkload| WorkloadFigures::predict(&planned, w).map_err(|e| engine(e.into()));
    let risk = risk(&planned, candidate, settings).map_err(|e| engine(e.into()))?;
    let disk = &planned.disks[0].model;
    let usable_tb = capacity.avail_bytes as f64 / 1e12;
    Ok(Evaluation {
        candidate: candidate.clone(),
        size_bytes: capacity.size_bytes,
        avail_bytes: capacity.avail_bytes,
        read: figures(&settings.read)?,
        write: figures(&settings.write)?,
        random: figures(&settings.random)?,
        extra: settings
            .extra
            .iter()
            .map(figures)
            .collect::<Result<_, _>>()?,
        degraded_hours: risk.degraded_hours,
        closed_form: risk.closed_form,
        loss_unknown: risk.loss_unknown,
        usd_per_usable_tb: disk
            .price_usd
            .filter(|_| usable_tb > 0.0)
            .map(|p| p * f64::from(candidate.disks()) / usable_tb),
    })
}

struct Risk {
    degraded_hours: f64,
    closed_form: Option<reliability::Odds>,
    loss_unknown: Option<String>,
}

/// What the reliability engine needs to know about a candidate on its machine.
struct Exposure {
    /// One per layout group.
    repairs: Vec<reliability::GroupRepair>,
    /// Exponential, from `--afr` or the field rate of the disk's class.
    lifetime: reliability::Lifetime,
    /// Latent errors a rebuild meets per bit read (`reliability::failure_figures`).
    uer_per_bit: f64,
}

/// Rebuilds of an idle pool at the rates `reliability::rebuild_rates` draws from the
/// performance model, and the disk's failure figures.
fn exposure(
    planned: &System,
    candidate: &Candidate,
    settings: &Settings,
) -> Result<Exposure, reliability::Error> {
    let disk = &planned.disks[0].model;
    let fill = settings.fill;
    let figures = reliability::failure_figures(disk, settings.afr_pct)?;
    let load = settings.load.as_ref().map(|l| reliability::UserLoad {
        workload: &l.workload,
        busy: settings.busy,
    });
    let rates = reliability::rebuild_rates(planned, fill, load)?;
    let repairs = candidate
        .layout
        .groups
        .iter()
        .map(|g| reliability::group_repair(g, disk.capacity_bytes, fill, &rates))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Exposure {
        repairs,
        lifetime: reliability::Lifetime::from_afr(figures.afr_pct)?,
        uer_per_bit: figures.uer_per_bit,
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
    let e = exposure(planned, candidate, settings)?;
    let wait_hours = if candidate.hot_spares == 0 {
        REPLACEMENT_HOURS
    } else {
        0.0
    };
    let mission_hours = reliability::mission_hours(settings.years)?;
    // Where the closed form does not hold the chances are unknown, not wrong: say why.
    let mtbf = e.lifetime.mtbf_hours().unwrap_or(f64::INFINITY);
    let mttdl = reliability::pool_mttdl(
        &candidate.layout,
        &e.repairs,
        mtbf,
        e.uer_per_bit,
        wait_hours,
    )?;
    let loss_unknown = mttdl.outside_validity(mission_hours);
    let closed_form = loss_unknown.is_none().then(|| {
        let odds = mttdl.odds(mission_hours);
        match settings.same_batch {
            true => reliability::batch_odds(odds, candidate.layout.redundancy()),
            false => odds,
        }
    });
    // The window the loss figures assume: the wait for a disk and the resilver.
    let degraded_hours = candidate
        .layout
        .groups
        .iter()
        .zip(&e.repairs)
        .map(|(g, r)| r.degraded_hours(reliability::distributed_spares(g), wait_hours))
        .fold(0.0, f64::max);
    Ok(Risk {
        degraded_hours,
        closed_form,
        loss_unknown,
    })
}

/// Missions simulated to check the recommendation's closed-form loss probability: enough to
/// see losses of a few in ten thousand, few enough to stay in milliseconds.
pub(crate) const MONTE_CARLO_TRIALS: u64 = 20_000;

/// A Monte Carlo of the evaluated candidate's disks over the mission (exponential lifetimes,
/// rebuilds of fixed length, hot spares used as they come, [`REPLACEMENT_HOURS`] to replace a
/// disk, the pool `fill` full of records of the first dataset's recordsize); `None` when the
/// disk has no failure rate.
pub(crate) fn monte_carlo(
    system: &System,
    evaluation: &Evaluation,
    settings: &Settings,
    cancel: &model::cancel::Cancel,
) -> Result<Option<reliability::MonteCarloReport>, PlanError> {
    let candidate = &evaluation.candidate;
    let planned = placement::with_candidate(system, candidate)?;
    let engine = |e: reliability::Error| PlanError::Engine {
        layout: candidate.layout.to_string(),
        error: e.into(),
    };
    let e = exposure(&planned, candidate, settings).map_err(engine)?;
    let lifetime = e.lifetime;
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
        mission_hours: reliability::mission_hours(settings.years).map_err(engine)?,
        same_batch: settings.same_batch,
    };
    reliability::simulate_cancellable(&scenario, MONTE_CARLO_TRIALS, SEED, cancel)
        .map(Some)
        .map_err(engine)
}
