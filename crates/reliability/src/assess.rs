//! One call for everything the reliability engine says about a machine's pool: each group's
//! rebuilds explained, the closed-form MTTDL and the Monte Carlo over the mission.

use crate::field::{failure_figures, FailureFigures};
use crate::lifetime::{lifetime, Lifetime};
use crate::montecarlo::{
    batch_moment, check_simulation, mission_hours, simulate_cancellable, MonteCarloReport,
    RepairTime, Scenario, MAX_TRIALS,
};
use crate::mttdl::{pool_mttdl, Mttdl, Odds};
use crate::rates::{rebuild_rates, UserLoad};
use crate::repair::{distributed_spares, GroupRepair};
use crate::resilver::{group_repair, rebuild, Rebuild, RebuildKind};
use crate::Error;
use model::cancel::Cancel;
use model::hardware::DiskModel;
use model::pool::DEFAULT_RECORDSIZE;
use model::{Layout, System, VdevGroup, VdevType};

/// What to assess: the pool's fill, the mission and the repair policy.
#[derive(Debug, Clone)]
pub struct Mission<'a> {
    /// Allocated share of the pool (0-1), as `zpool list` CAP.
    pub fill: f64,
    /// The mission, years.
    pub years: f64,
    /// Hours until a failed disk is physically replaced.
    pub replacement_hours: f64,
    /// User load running during rebuilds (`None`: idle pool).
    pub user: Option<UserLoad<'a>>,
    /// Disk lifetimes; `None`: from `afr_pct`, else the field AFR of the disk's class
    /// ([`crate::failure_figures`]), exponential, or Weibull of `weibull_shape` failing at that
    /// rate on average over the mission.
    pub lifetime: Option<Lifetime>,
    /// Yearly failure rate of a disk, percent (`None`: the field rate of its class).
    pub afr_pct: Option<f64>,
    /// Weibull shape of the lifetimes (`None`: exponential).
    pub weibull_shape: Option<f64>,
    /// Monte Carlo trials (0: skip the simulation; at most
    /// [`crate::montecarlo::MAX_TRIALS`]) and seed.
    pub trials: u64,
    /// Seed of the simulation: the same seed gives the same figures.
    pub seed: u64,
    /// The pool's disks come from one batch (`Scenario::same_batch`): the simulation shares a
    /// hazard factor among them and the closed forms, which take failures to be independent,
    /// are not given.
    pub same_batch: bool,
}

/// The assessment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Assessment {
    /// The mission's fill and years, as assessed, and the user load during rebuilds (the
    /// workload's name; `None`: an idle pool).
    pub fill: f64,
    /// The mission, years.
    pub years: f64,
    /// The user load during rebuilds, by name.
    pub load: Option<String>,
    /// The share of the time that load runs (`None`: an idle pool).
    pub busy: Option<f64>,
    /// The disks were taken to be of one batch (`Mission::same_batch`).
    pub same_batch: bool,
    /// The disk whose figures were used (the system's first), the annualised failure rate
    /// (percent) and latent errors per bit read that were used, and where each comes from
    /// beside the data sheet's figures.
    pub disk: String,
    /// The disk records shingled (SMR): its resilvers write at the published SMR rate
    /// ([`crate::SMR_RESILVER_SLOWDOWN`]).
    pub shingled: bool,
    /// The annualised failure rate used, percent.
    pub afr_pct: Option<f64>,
    /// Latent errors per bit read used.
    pub uer_per_bit: Option<f64>,
    /// Where the disk's failure figures come from, beside its data sheet's.
    pub figures: FailureFigures,
    /// The disk lifetimes assumed.
    pub lifetime: Option<Lifetime>,
    /// The share of disks those lifetimes fail within the mission, none replaced: what a
    /// Weibull shape implies beside the AFR it holds over the mission.
    pub failed_within_mission: Option<f64>,
    /// Every rebuild of every normal-class group, in layout order: the resilver, and for dRAID
    /// with distributed spares the sequential rebuild too.
    pub rebuilds: Vec<Rebuild>,
    /// The repair each group gets, from its rebuilds.
    pub repairs: Vec<GroupRepair>,
    /// Closed form and its chances of loss over the mission: only for exponential lifetimes,
    /// and the chances only where the closed form holds (else `closed_form_invalid` says why).
    pub mttdl: Option<Mttdl>,
    /// The closed form's chances of loss over the mission, where it holds.
    pub closed_form: Option<Odds>,
    /// Why the closed form does not hold, when it does not.
    pub closed_form_invalid: Option<String>,
    /// Rebuilds take their fixed time here, so for double and triple parity the simulated
    /// loss is below the closed form's (about 1/p!, see `RepairTime`).
    pub monte_carlo: Option<MonteCarloReport>,
}

/// Assesses the normal-class pool of `system`, using its first disk's figures.
pub fn assess(system: &System, mission: &Mission) -> Result<Assessment, Error> {
    assess_cancellable(system, mission, &Cancel::never())
}

/// [`assess`], stopping with [`Error::Cancelled`] soon after `cancel` is raised.
pub fn assess_cancellable(
    system: &System,
    mission: &Mission,
    cancel: &Cancel,
) -> Result<Assessment, Error> {
    let (disk, mission_hours) = checked(system, mission)?;
    let figures = failure_figures(disk, mission.afr_pct)?;
    let lifetime = mission_lifetime(system, mission, figures.afr_pct, mission_hours)?;
    let groups = normal_groups(system);
    let (rebuilds, repairs) = rebuilds(system, &groups, mission)?;
    let layout = Layout {
        groups: groups.iter().map(|(g, _)| *g).collect(),
    };
    let uer = figures.uer_per_bit;
    let wait_hours = wait_hours(system, mission);
    let mttdl = lifetime
        .mtbf_hours()
        .map(|mtbf| pool_mttdl(&layout, &repairs, mtbf, uer, wait_hours))
        .transpose()?;
    let monte_carlo = simulated(
        system,
        mission,
        (&layout, &repairs, &groups),
        lifetime,
        (uer, mission_hours),
        cancel,
    )?;
    let (closed_form, closed_form_invalid) =
        closed_form(mttdl.as_ref(), mission_hours, mission.same_batch);
    Ok(Assessment {
        fill: mission.fill,
        years: mission.years,
        load: mission.user.map(|u| u.workload.kind.clone()),
        busy: mission.user.map(|u| u.busy),
        same_batch: mission.same_batch,
        disk: disk.id.clone(),
        shingled: disk.shingled == Some(true),
        afr_pct: Some(figures.afr_pct),
        uer_per_bit: Some(uer),
        figures,
        lifetime: Some(lifetime),
        failed_within_mission: Some(-(-lifetime.cumulative_hazard(mission_hours)).exp_m1()),
        rebuilds,
        repairs,
        closed_form,
        closed_form_invalid,
        mttdl,
        monte_carlo,
    })
}

/// The Monte Carlo of the mission (`None` without trials): the pool's `layout` of `groups`
/// repaired as `repairs` say, with latent errors met at `uer` per bit over `mission_hours`.
fn simulated(
    system: &System,
    mission: &Mission,
    (layout, repairs, groups): (&Layout, &[GroupRepair], &[(VdevGroup, u64)]),
    lifetime: Lifetime,
    (uer, mission_hours): (f64, f64),
    cancel: &Cancel,
) -> Result<Option<MonteCarloReport>, Error> {
    if mission.trials == 0 {
        return Ok(None);
    }
    let scenario = Scenario {
        layout,
        repairs,
        lifetime,
        repair_time: RepairTime::Fixed,
        hot_spares: system.pool.spares,
        replacement_hours: mission.replacement_hours,
        uer_per_bit: uer,
        allocated_bytes: allocated_bytes(groups, mission.fill),
        block_bytes: record_bytes(system),
        mission_hours,
        same_batch: mission.same_batch,
    };
    simulate_cancellable(&scenario, mission.trials, mission.seed, cancel).map(Some)
}

/// The disk lifetimes of the mission: its own, else from `afr_pct` and its Weibull shape;
/// checked against the simulation's budget when it simulates.
fn mission_lifetime(
    system: &System,
    mission: &Mission,
    afr_pct: f64,
    mission_hours: f64,
) -> Result<Lifetime, Error> {
    let lifetime = match mission.lifetime {
        Some(l) => l,
        None => lifetime(afr_pct, mission.weibull_shape, mission_hours)?,
    };
    if mission.trials > 0 {
        let disks = system.disks.len() as u64;
        check_simulation(disks, mission.trials, &lifetime, mission_hours)?;
    }
    Ok(lifetime)
}

/// Hours a failed disk waits before its resilver starts: none with a hot spare.
fn wait_hours(system: &System, mission: &Mission) -> f64 {
    if system.pool.spares > 0 {
        0.0
    } else {
        mission.replacement_hours
    }
}

/// The bytes the normal-class groups hold at `fill`.
fn allocated_bytes(groups: &[(VdevGroup, u64)], fill: f64) -> f64 {
    groups
        .iter()
        .map(|(g, leaf)| data_bytes(g, *leaf, fill))
        .sum()
}

/// The system's first disk and the mission in hours, once both are checked.
fn checked<'s>(system: &'s System, mission: &Mission) -> Result<(&'s DiskModel, f64), Error> {
    let disk = &system
        .disks
        .first()
        .ok_or_else(|| Error::Invalid("the system has no disks".into()))?
        .model;
    let hours = mission_hours(mission.years)?;
    if mission.trials > MAX_TRIALS {
        return Err(Error::Invalid(format!(
            "a simulation runs at most {MAX_TRIALS} trials, not {}",
            mission.trials
        )));
    }
    Ok((disk, hours))
}

/// The closed form's odds over `hours`, or why they are not given: outside the closed form's
/// validity, or disks of one batch.
fn closed_form(
    mttdl: Option<&Mttdl>,
    hours: f64,
    same_batch: bool,
) -> (Option<Odds>, Option<String>) {
    match mttdl {
        None => (None, None),
        Some(m) => match m.outside_validity(hours) {
            Some(why) => (None, Some(why)),
            None if same_batch => (None, Some(same_batch_note())),
            None => (Some(m.odds(hours)), None),
        },
    }
}

/// Why the closed forms do not apply to disks of one batch.
fn same_batch_note() -> String {
    format!(
        "the disks are of one batch (--same-batch): the closed forms take failures to be \
         independent; a loss needing n failures in one vdev is about E[Z^n] times likelier \
         ({:.2} for 2, {:.2} for 3, {:.2} for 4 failures); the simulation shares the batch's \
         hazard factor Z among the disks",
        batch_moment(2),
        batch_moment(3),
        batch_moment(4)
    )
}

/// The record size of the pool's first dataset: the block a latent error loses.
fn record_bytes(system: &System) -> f64 {
    system
        .pool
        .datasets
        .first()
        .map_or(DEFAULT_RECORDSIZE, |d| d.recordsize) as f64
}

/// The normal class's layout groups, each with its leaf size.
fn normal_groups(system: &System) -> Vec<(VdevGroup, u64)> {
    system
        .pool
        .normal()
        .flat_map(|top| {
            top.layout
                .groups
                .iter()
                .map(|g| (*g, top.leaf.capacity_bytes))
        })
        .collect()
}

/// Every group's rebuilds explained (the resilver, and for dRAID with distributed spares
/// the sequential rebuild too) and its repair figures, at the mission's fill and load.
fn rebuilds(
    system: &System,
    groups: &[(VdevGroup, u64)],
    mission: &Mission,
) -> Result<(Vec<Rebuild>, Vec<GroupRepair>), Error> {
    let rates = rebuild_rates(system, mission.fill, mission.user)?;
    let mut rebuilds = Vec::new();
    let mut repairs = Vec::new();
    for (g, leaf) in groups {
        repairs.push(group_repair(g, *leaf, mission.fill, &rates)?);
        if g.vtype == VdevType::Disk {
            continue;
        }
        let kind = RebuildKind::Resilver;
        rebuilds.push(rebuild(g, kind, *leaf, mission.fill, &rates)?);
        if distributed_spares(g) > 0 {
            let kind = RebuildKind::SequentialRebuild;
            rebuilds.push(rebuild(g, kind, *leaf, mission.fill, &rates)?);
        }
    }
    Ok((rebuilds, repairs))
}

/// Data (parity excluded) a group holds at `fill`: what losing it loses.
fn data_bytes(g: &VdevGroup, leaf_bytes: u64, fill: f64) -> f64 {
    let per_vdev = match g.vtype {
        VdevType::Disk | VdevType::Mirror => 1.0,
        VdevType::Raidz { parity } => (g.children - parity) as f64,
        VdevType::Draid {
            parity,
            data,
            spares,
        } => (g.children - spares) as f64 * data as f64 / (data + parity) as f64,
    };
    g.count as f64 * per_vdev * leaf_bytes as f64 * fill
}
