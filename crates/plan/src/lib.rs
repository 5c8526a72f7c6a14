//! The planner: enumerate layouts, evaluate each on a machine, rank them and recommend one
//! (`plan`, `plan_disks`), grow raidz layouts, and build the machine a plan runs on
//! (`assemble`). Pure functions over the model and the engines: nothing here prints, reads
//! files or exits. The choices made for a user who did not make them are in `policy`. The
//! answers built from these pieces (the one-page report, chosen layouts compared) are
//! requests' (crates/request).

mod assemble;
mod candidate_figures;
mod enumerate;
mod error;
mod evaluate;
mod loss_bands;
mod needs;
mod pareto;
mod placement;
pub mod policy;
mod raidz_expansion;
mod recommend;
pub mod rules;
mod search;

pub use assemble::{assemble, assemble_with, Assembled, Disks};
pub use candidate_figures::{Evaluation, LabelledWorkload, WorkloadFigures};
pub use enumerate::{candidates, Candidate};
pub use error::{EngineError, PlanError};
pub use evaluate::{evaluate, Settings};
pub use loss_bands::LossBands;
pub use needs::{format_probability, parse_needs, Metric, Need, NeedError};
pub use placement::{
    candidate_on, data_disks, disks_of_size, roles, with_candidate, with_controllers_for,
    with_disks,
};
pub use policy::Rank;
pub use policy::MAX_DISKS;
pub use raidz_expansion::{grow, within_policy, GrowthOption, GrowthStep};
pub use recommend::{at_the_target, NearMiss, Recommendation, DEFAULT_LOSS_TARGET};
pub use search::{
    check_work, own, plan, plan_cancellable, plan_disks, plan_disks_cancellable, DiskPlan,
    DiskRequest, Own, Plan, Request, Terms, MAX_PLAN_WORK,
};
