//! The planner: enumerate layouts, rank them, recommend one. Pure functions over the model
//! and the engines: nothing here prints, reads files or exits.

pub mod compare;
pub mod enumerate;
pub mod error;
pub mod evaluate;
pub mod evaluation;
pub mod machine;
pub mod needs;
pub mod pareto;
pub mod recommend;
pub mod search;

pub use compare::compare;
pub use enumerate::{candidates, Candidate};
pub use error::PlanError;
pub use evaluate::{LabelledWorkload, Settings};
pub use evaluation::{Evaluation, WorkloadFigures};
pub use needs::{parse_needs, Metric, Need, NeedError};
pub use recommend::{NearMiss, Recommendation};
pub use search::{plan, Plan, Request};
