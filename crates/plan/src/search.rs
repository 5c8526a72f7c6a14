//! The whole plan: every candidate evaluated, the needs applied, the front marked, one chosen.

use crate::assemble::{assemble, Disks};
use crate::candidate_figures::Evaluation;
use crate::enumerate::{candidates, Candidate};
use crate::error::PlanError;
use crate::evaluate::{evaluate, monte_carlo, own_candidate, Settings};
use crate::loss_bands::LossBands;
use crate::needs::Need;
use crate::pareto;
use crate::policy::Rank;
use crate::policy::MAX_DISKS;
use crate::recommend::{closest, meets, recommend, standing, Recommendation};
use crate::rules::{self, RuledOut};
use model::cancel::Cancel;
use model::{Catalog, System, VdevType};
use serde::Serialize;

/// Work one plan or comparison may do, in layouts x workloads x disks (each workload predicted
/// for each layout, at a cost in proportion to the disks): the three standard workloads on
/// 1,000 disks (228 layouts, 684,000) take 2.5 s on the CI machine, and a costly extra workload
/// (a bonnie++ rewrite) 3.3 s more on 1,000 disks: the most allowed takes about 6 s. A policy.
pub const MAX_PLAN_WORK: u64 = 700_000;

/// Refuses, before any work, `layouts` layouts on `disks` disks for every workload of
/// `settings` past [`MAX_PLAN_WORK`], saying how many workloads these would allow.
pub fn check_work(layouts: usize, disks: usize, settings: &Settings) -> Result<(), PlanError> {
    let per_workload = (layouts * disks.max(1)) as u64;
    // A load during rebuilds is predicted for every layout too.
    let workloads = (settings.workloads().count() + usize::from(settings.load.is_some())) as u64;
    model::budget::check(
        "layout-workload-disks (layouts x workloads x disks)",
        per_workload.saturating_mul(workloads),
        MAX_PLAN_WORK,
        || match MAX_PLAN_WORK / per_workload.max(1) {
            n if n > 3 => format!(
                "{layouts} layouts of {disks} disks take at most {} workloads beyond the standard three",
                n - 3
            ),
            _ => format!(
                "{layouts} layouts of {disks} disks leave room for no workload beyond the standard three; use fewer layouts or disks"
            ),
        },
    )
    .map_err(PlanError::OverBudget)
}

/// What to plan: the machine with its disks in place (`placement::with_disks`), and the terms.
#[derive(Debug, Clone)]
pub struct Request {
    /// The machine, its disks in place.
    pub system: System,
    /// What the plan is held to.
    pub terms: Terms,
}

/// What a plan is held to, whichever way its disks are given ([`Request`], [`DiskRequest`]).
#[derive(Debug, Clone)]
pub struct Terms {
    /// Hot spares set aside before layouts are built.
    pub hot_spares: u32,
    /// Leaf failures every vdev must survive.
    pub min_redundancy: u32,
    /// Bounds every pick must meet (`--need`).
    pub needs: Vec<Need>,
    /// The workloads and fill every candidate is measured by.
    pub settings: Settings,
    /// How layouts under the loss target are ranked.
    pub rank: Rank,
    /// Keep the layouts the policy rules out (`crate::rules`).
    pub consider_all: bool,
}

/// The outcome.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Plan {
    /// Candidates evaluated.
    pub considered: usize,
    /// Candidates the policy ruled out before evaluation, per rule (empty with
    /// `consider_all`).
    pub ruled_out: Vec<RuledOut>,
    /// Those meeting every need, in enumeration order.
    pub evaluations: Vec<Evaluation>,
    /// For each of them, whether it is on the Pareto front.
    pub on_front: Vec<bool>,
    /// An index into `evaluations`.
    pub recommendation: Recommendation,
    /// The recommendation's loss checked by simulation (`None`: the disk has no failure rate).
    pub monte_carlo: Option<reliability::MonteCarloReport>,
    /// The classes of P(data loss) by the target applied, as charts colour them.
    pub loss_bands: LossBands,
    /// The layout the system file has, scored the same way, and where it stands (only when
    /// a system file's own layout occupies exactly the planned disks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own: Option<Own>,
}

/// The user's own layout, scored as the candidates are.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Own {
    /// The own layout, evaluated.
    #[serde(flatten)]
    pub evaluation: Evaluation,
    /// Against the loss target and the needs, and what the pick gives and costs against it.
    pub standing: String,
}

/// The own layout of `request`'s system, scored and placed against `plan`'s pick (`None` when
/// it does not occupy exactly the planned disks).
pub fn own(request: &Request, plan: &Plan) -> Result<Option<Own>, PlanError> {
    let Some(candidate) = own_candidate(&request.system) else {
        return Ok(None);
    };
    let evaluation = evaluate(&request.system, &candidate, &request.terms.settings)?;
    let pick = &plan.evaluations[plan.recommendation.index];
    let standing = standing(&evaluation, pick, &request.terms.needs);
    Ok(Some(Own {
        evaluation,
        standing,
    }))
}

/// Evaluates every candidate for the request's disks; errs when none exists or none meets the
/// needs (naming the closest).
pub fn plan(request: &Request) -> Result<Plan, PlanError> {
    plan_cancellable(request, &Cancel::never())
}

/// [`plan`], stopping with [`PlanError::Cancelled`] at the first layout after `cancel` is
/// raised.
pub fn plan_cancellable(request: &Request, cancel: &Cancel) -> Result<Plan, PlanError> {
    plan_among(request, cancel, |_| true)
}

/// Whether raidz expansion can widen `candidate`, one disk per vdev at a time, to `end` disks
/// that the policy keeps on disks of `disk_bytes` (the same test as `crate::raidz_expansion`'s): one
/// raidz group, no hot spares, its vdevs dividing the disks added.
fn growable(candidate: &Candidate, end: u32, disk_bytes: u64) -> bool {
    let [g] = candidate.layout.groups[..] else {
        return false;
    };
    let start = g.count * g.children;
    let widens = matches!(g.vtype, VdevType::Raidz { .. })
        && candidate.hot_spares == 0
        && end > start
        && (end - start).is_multiple_of(g.count);
    let grown = Candidate {
        layout: model::Layout {
            groups: vec![model::VdevGroup {
                children: end / g.count,
                ..g
            }],
        },
        hot_spares: 0,
    };
    widens && rules::broken_rule(&grown, disk_bytes).is_none()
}

/// The candidates for the request's disks that the release supports, `wanted` keeps and the
/// policy keeps (all with `consider_all`), and per rule how many the policy removed.
fn kept_candidates(
    request: &Request,
    disks: u32,
    wanted: impl Fn(&Candidate) -> bool,
) -> Result<(Vec<Candidate>, Vec<RuledOut>), PlanError> {
    let draid = space::Profile::of(request.system.host.zfs).draid;
    let all: Vec<_> = candidates(
        disks,
        request.terms.hot_spares,
        request.terms.min_redundancy,
    )
    .into_iter()
    .filter(|c| {
        draid
            || !c
                .layout
                .groups
                .iter()
                .any(|g| matches!(g.vtype, VdevType::Draid { .. }))
    })
    .filter(|c| wanted(c))
    .collect();
    let (all, ruled_out) = if request.terms.consider_all {
        (all, Vec::new())
    } else {
        rules::apply(all, disk_bytes(request))
    };
    if all.is_empty() {
        return Err(PlanError::NoCandidates {
            disks,
            hot_spares: request.terms.hot_spares,
            min_redundancy: request.terms.min_redundancy,
        });
    }
    Ok((all, ruled_out))
}

/// The size of the request's disks, bytes (0 without disks).
fn disk_bytes(request: &Request) -> u64 {
    request
        .system
        .disks
        .first()
        .map_or(0, |d| d.model.capacity_bytes)
}

/// What the pick costs that its row does not show: the policy's caveats, and shingled disks.
fn pick_caveats(request: &Request, chosen: &Candidate) -> Vec<String> {
    let mut out = rules::caveats(chosen, disk_bytes(request), request.system.pool.ashift);
    if request.system.disks.first().and_then(|d| d.model.shingled) == Some(true) {
        out.push(format!(
            "the disks are shingled (SMR): a resilver writes onto one {:.1} times slower than onto a conventional (CMR) disk, as published SMR resilvers did; prefer CMR disks for ZFS",
            reliability::SMR_RESILVER_SLOWDOWN
        ));
    }
    out
}

/// [`plan_cancellable`] over the candidates `wanted` keeps.
fn plan_among(
    request: &Request,
    cancel: &Cancel,
    wanted: impl Fn(&Candidate) -> bool,
) -> Result<Plan, PlanError> {
    let disks = u32::try_from(crate::placement::data_disks(&request.system)).unwrap_or(u32::MAX);
    if disks > MAX_DISKS {
        return Err(PlanError::TooManyDisks { disks });
    }
    let (all, ruled_out) = kept_candidates(request, disks, wanted)?;
    check_work(all.len(), disks as usize, &request.terms.settings)?;
    let evaluated = all
        .iter()
        .map(|c| {
            cancel.check()?;
            evaluate(&request.system, c, &request.terms.settings)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let considered = evaluated.len();
    let (passing, failing): (Vec<_>, Vec<_>) = evaluated
        .into_iter()
        .partition(|e| meets(e, &request.terms.needs));
    let years = request.terms.settings.years;
    let Some(mut recommendation) =
        recommend(&passing, &request.terms.needs, years, request.terms.rank)
    else {
        return Err(PlanError::NothingMeetsNeeds {
            disks,
            needs: request.terms.needs.clone(),
            closest: closest(&failing, &request.terms.needs),
        });
    };
    let chosen = &passing[recommendation.index];
    let caveats = pick_caveats(request, &chosen.candidate);
    recommendation.caveats.splice(0..0, caveats);
    let monte_carlo = monte_carlo(&request.system, chosen, &request.terms.settings, cancel)?;
    let objectives: Vec<Vec<f64>> = passing.iter().map(Evaluation::objectives).collect();
    Ok(Plan {
        considered,
        ruled_out,
        on_front: pareto::front(&objectives),
        evaluations: passing,
        recommendation,
        monte_carlo,
        loss_bands: LossBands::of(&request.terms.needs),
        own: None,
    })
}

/// A plan for disks as the user gives them (`zpoolsim plan`).
#[derive(Debug, Clone)]
pub struct DiskRequest {
    /// The disk model, how many, and their price.
    pub disks: Disks,
    /// What the plan is held to.
    pub terms: Terms,
    /// Only layouts raidz expansion can grow to this many disks within the policy
    /// (`--grow-to`).
    pub grow_to: Option<u32>,
}

/// The plan for those disks, with the machine it ran on and what was assumed to build it.
#[derive(Debug, Clone, Serialize)]
pub struct DiskPlan {
    /// The machine's name.
    pub system: String,
    /// The disk model planned for.
    pub disk: String,
    /// How many of them.
    pub disks: usize,
    /// Every assumption made to build the machine, one sentence each.
    pub assumed: Vec<String>,
    /// The workloads and fill every candidate was measured by.
    pub settings: Settings,
    /// The bounds asked for.
    pub needs: Vec<Need>,
    /// The plan itself.
    #[serde(flatten)]
    pub plan: Plan,
    /// The machine the plan ran on.
    #[serde(skip)]
    pub machine: System,
}

/// Assembles the machine for `request`'s disks and plans it.
pub fn plan_disks(request: &DiskRequest, catalog: &Catalog) -> Result<DiskPlan, PlanError> {
    plan_disks_cancellable(request, catalog, &Cancel::never())
}

/// [`plan_disks`], stopping with [`PlanError::Cancelled`] soon after `cancel` is raised.
pub fn plan_disks_cancellable(
    request: &DiskRequest,
    catalog: &Catalog,
    cancel: &Cancel,
) -> Result<DiskPlan, PlanError> {
    let assembled = assemble(&request.disks, catalog)?;
    let request_for_machine = Request {
        system: assembled.system.clone(),
        terms: request.terms.clone(),
    };
    let bytes = disk_bytes(&request_for_machine);
    let mut result = plan_among(&request_for_machine, cancel, |c| {
        request.grow_to.is_none_or(|end| growable(c, end, bytes))
    })?;
    if request.disks.system.is_some() {
        result.own = own(&request_for_machine, &result)?;
    }
    let machine = assembled.system;
    Ok(DiskPlan {
        system: machine.name.clone(),
        disk: machine.disks[0].model.id.clone(),
        disks: crate::placement::data_disks(&machine),
        assumed: assembled.assumed,
        settings: request.terms.settings.clone(),
        needs: request.terms.needs.clone(),
        plan: result,
        machine,
    })
}
