//! The questions both front ends answer, one type each: a command's flags, which clap reads from
//! a command line and [`from_json`] from a JSON object whose keys are those flags, with one
//! `answer` that calls the engines and returns what `--json` prints. The command line and the
//! web page differ only in where named inputs come from ([`Inputs`]) and how they show the
//! answer; neither computes.

mod capacity;
mod compare;
mod criteria;
mod error;
mod flags;
mod inputs;
mod not_modelled;
mod numbers;
mod plan;
mod predict;
mod raidz_expansion;
mod reliability;
mod report;
mod system;
mod words;

pub use capacity::{CapacityAnswer, CapacityRequest};
pub use compare::{compare, CompareRequest, Comparison};
pub use criteria::{parse_fill, Criteria};
pub use error::{about, Error, Refusal};
pub use flags::{from_json, in_fields};
pub use inputs::{system_or_default, Inputs};
pub use not_modelled::{sentence as not_modelled_sentence, WordedPrediction};
pub use plan::{DiskFlags, PlanAnswer, PlanRequest};
pub use predict::{PredictAnswer, PredictRequest, Predicted, Sweep, Swept};
pub use reliability::{ReliabilityAnswer, ReliabilityRequest};
pub use report::{report, Report, ReportRequest};
pub use system::SystemRequest;

/// An answer as `--json` prints it and the web API returns it: pretty JSON and a newline.
pub fn to_json<T: serde::Serialize>(value: &T) -> Result<String, Error> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}
