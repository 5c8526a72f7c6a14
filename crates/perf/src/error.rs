//! Why a prediction could not be made.

use std::fmt;

/// Why a prediction could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PerfError {
    /// The system description cannot carry the workload (missing disks, dangling links).
    System(String),
    /// The workload makes no sense on this system.
    Workload(String),
    /// A sweep past its work budget (`MAX_SWEEP_WORK`).
    OverBudget(model::budget::OverBudget),
}

impl fmt::Display for PerfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerfError::System(m) => write!(f, "system: {m}"),
            PerfError::Workload(m) => write!(f, "workload: {m}"),
            PerfError::OverBudget(why) => write!(f, "sweep: {why}"),
        }
    }
}

impl std::error::Error for PerfError {}
