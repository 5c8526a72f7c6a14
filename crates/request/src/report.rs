//! The one-page report on a machine: the space its pool gives, how fast it streams and serves
//! random reads and what limits each, its rebuilds and chance of losing data, and the layout
//! the planner would pick for the same disks, all under the standard policies.

use crate::plan::refused;
use crate::{about, system_or_default, Inputs, Refusal};
use ::plan::policy::{FILL, MAX_DISKS, REPLACEMENT_HOURS, REPORT_TRIALS, SEED, YEARS};
use ::plan::{
    plan, EngineError, Evaluation, PlanError, Rank, Recommendation, Request, Settings,
    WorkloadFigures,
};
use model::hardware::Nic;
use model::System;
use reliability::{Assessment, Mission};
use serde::Serialize;

/// The whole picture of one machine: space, speed, safety and the planner's pick.
#[derive(clap::Args, Debug)]
pub struct ReportRequest {
    /// The system file; default: the embedded default system.
    pub system: Option<String>,
    /// Yearly failure rate of a disk, percent ('5%' or 5; default: the field rate of its
    /// class, docs/assumptions.md: 1.57% for hard disks, 0.98% for SSDs), 0.01 to 99.
    #[arg(long, value_parser = crate::numbers::percent_in_range(&model::range::AFR_PCT))]
    pub afr: Option<f64>,
}

impl ReportRequest {
    /// The report on the system asked for, or on the embedded default system.
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<Report, Refusal> {
        let system = system_or_default(inputs, self.system.as_deref()).map_err(about("system"))?;
        report(&system, self.afr).map_err(refused)
    }
}

/// Everything the report says.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The system's name.
    pub system: String,
    /// The system's NICs, for the heading of the figures across the network.
    #[serde(skip)]
    pub nics: Vec<Nic>,
    /// The pool's normal-class layout (`2x raidz2-6`).
    pub layout: String,
    /// The system's disks, all roles.
    pub disks: usize,
    /// The pool's ashift.
    pub ashift: u8,
    /// SIZE and AVAIL.
    pub capacity: space::Capacity,
    /// The standard workloads: sequential read, sequential write, random read, run on the
    /// machine itself.
    pub workloads: Vec<WorkloadFigures>,
    /// The same workloads run by clients across the network (`net=on`: the data crosses the
    /// host's NICs); empty when the system names no NIC.
    pub over_network: Vec<WorkloadFigures>,
    /// Rebuilds and the chances of loss under the standard mission.
    pub reliability: Assessment,
    /// The data disks the planner places, and what keeps its role beside them (special,
    /// dedup and log vdevs, cache devices, hot spares), one phrase each.
    pub planned_disks: usize,
    /// What keeps its role, one phrase each.
    pub roles: Vec<String>,
    /// The pool's own layout scored as the planner scores its candidates, and where it stands
    /// against the loss target and the pick (`None`: its leaves are not the data disks).
    pub own: Option<::plan::Own>,
    /// Layouts the planner considered for the same disks, its pick and that pick's figures.
    pub considered: usize,
    /// The planner's pick and why.
    pub recommendation: Recommendation,
    /// The pick's figures.
    pub recommended: Evaluation,
}

/// The report on `system`, at the standard fill, mission, repair delay and workloads, with
/// disks failing `afr_pct` percent a year (`None`: the field rate of their class).
pub fn report(system: &System, afr_pct: Option<f64>) -> Result<Report, PlanError> {
    let disks = u32::try_from(system.disks.len()).unwrap_or(u32::MAX);
    if disks > MAX_DISKS {
        return Err(PlanError::ReportTooManyDisks { disks });
    }
    let capacity = space::pool_capacity(&system.pool, &space::Profile::of(system.host.zfs))
        .map_err(|e| on_pool(system, e.into()))?;
    let settings = Settings {
        afr_pct,
        ..Settings::standard(FILL, YEARS)
    };
    let (workloads, over_network) = speeds(system, &settings)?;
    let reliability =
        reliability::assess(system, &mission(afr_pct)).map_err(|e| on_pool(system, e.into()))?;
    // The planner keeps the pool's own redundancy floor: a redundant pool is not advised to
    // become a stripe.
    let min_redundancy = system
        .pool
        .normal()
        .map(|t| t.layout.redundancy())
        .min()
        .unwrap_or(0)
        .min(1);
    let request = Request {
        system: system.clone(),
        terms: ::plan::Terms {
            hot_spares: 0,
            min_redundancy,
            needs: Vec::new(),
            settings,
            rank: Rank::default(),
            consider_all: false,
        },
    };
    let plan = plan(&request)?;
    let own = ::plan::own(&request, &plan)?;
    Ok(Report {
        system: system.name.clone(),
        nics: system.host.nics.clone(),
        layout: system.pool.normal_layout(),
        disks: system.disks.len(),
        ashift: system.pool.ashift,
        capacity,
        workloads,
        over_network,
        reliability,
        planned_disks: ::plan::data_disks(system),
        roles: ::plan::roles(system),
        own,
        considered: plan.considered,
        recommended: plan.evaluations[plan.recommendation.index].clone(),
        recommendation: plan.recommendation,
    })
}

/// The report's mission: the standard fill, years and repair delay on an idle pool, disks
/// failing `afr_pct` a year (`None`: the field rate), the report's simulation.
fn mission(afr_pct: Option<f64>) -> Mission<'static> {
    Mission {
        fill: FILL,
        years: YEARS,
        replacement_hours: REPLACEMENT_HOURS,
        user: None,
        lifetime: None,
        afr_pct,
        weibull_shape: None,
        trials: REPORT_TRIALS,
        seed: SEED,
        same_batch: false,
    }
}

/// The standard workloads on the machine, and across its NICs (none without one).
fn speeds(
    system: &System,
    settings: &Settings,
) -> Result<(Vec<WorkloadFigures>, Vec<WorkloadFigures>), PlanError> {
    let local = settings
        .workloads()
        .map(|w| WorkloadFigures::predict(system, w))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| on_pool(system, e.into()))?;
    let over_network = if system.host.nics.iter().any(|n| n.gbps > 0.0) {
        settings
            .workloads()
            .map(|w| WorkloadFigures::predict(system, &w.over_network()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| on_pool(system, e.into()))?
    } else {
        Vec::new()
    };
    Ok((local, over_network))
}

/// An engine's refusal of the system's own pool.
fn on_pool(system: &System, error: EngineError) -> PlanError {
    PlanError::Engine {
        layout: system.pool.normal_layout(),
        error,
    }
}
