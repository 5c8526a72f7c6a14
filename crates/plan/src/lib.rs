//! The planner: enumerate layouts, rank them, recommend one. Pure functions over the model
//! and the engines: nothing here prints, reads files or exits.

pub mod enumerate;
pub mod needs;
pub mod pareto;

pub use enumerate::{candidates, Candidate};
pub use needs::{parse_needs, Metric, Need, NeedError};
