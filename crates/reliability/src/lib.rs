//! Reliability: how likely a pool is to lose data over a mission, and how long it stays
//! exposed after a disk fails.
//!
//! - `resilver`: the bytes one rebuild moves and the time it takes at the rates the
//!   performance model gives (`rates`, through `perf::rebuild_path`), as a [`GroupRepair`].
//! - `mttdl`: Elling's MTTDL closed forms per vdev, pools in series (docs/zfs-internals.md §7).
//! - `montecarlo`: a seeded simulation of every disk of the pool over a mission, for
//!   lifetimes and repair rules the closed forms cannot handle.
//! - `assess`: all of it for a machine's pool in one call.

mod assess;
mod estimate;
mod field;
mod lifetime;
mod montecarlo;
mod mttdl;
mod rates;
mod repair;
mod resilver;
mod rng;
mod scan;

pub use assess::{assess, assess_cancellable, Assessment, Mission};
pub use estimate::Estimate;
pub use field::{failure_figures, FailureFigures};
pub use lifetime::{disk_afr_pct, lifetime, Lifetime, HOURS_PER_YEAR};
pub use montecarlo::{
    batch_moment, batch_odds, check_simulation, mission_hours, simulate, simulate_cancellable,
    MonteCarloReport, RepairTime, Scenario, BATCH_SHAPE, MAX_MISSION_YEARS, MAX_SIMULATION_WORK,
    MAX_TRIALS,
};
pub use mttdl::{p_loss_within, pool_mttdl, vdev_mttdl, Mttdl, Odds, SCRUB_INTERVAL_HOURS};
pub use perf::BlockCosts;
pub use perf::SharedPath;
pub use rates::{rebuild_rates, UserLoad, SMR_RESILVER_SLOWDOWN};
pub use repair::{distributed_spares, GroupRepair};
pub use resilver::{group_repair, rebuild, Limit, Rebuild, RebuildKind, RebuildRates};
pub use scan::ScanShape;

use std::fmt;

/// Why a reliability question could not be answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// An input out of its domain (a negative rate, a fill above 1, ...).
    Invalid(String),
    /// A simulation past the work budget ([`MAX_SIMULATION_WORK`]).
    OverBudget(model::budget::OverBudget),
    /// The question does not apply to this layout (a stripe has nothing to rebuild from).
    NotApplicable(String),
    /// The performance model could not give the rates a rebuild needs.
    Perf(perf::PerfError),
    /// Stopped before the end: the answer was no longer wanted.
    Cancelled(model::cancel::Cancelled),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(why) => write!(f, "invalid reliability input: {why}"),
            Error::NotApplicable(why) => write!(f, "{why}"),
            Error::Perf(why) => write!(f, "rebuild rates: {why}"),
            Error::OverBudget(why) => write!(f, "Monte Carlo: {why}"),
            Error::Cancelled(why) => why.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<model::cancel::Cancelled> for Error {
    fn from(c: model::cancel::Cancelled) -> Self {
        Error::Cancelled(c)
    }
}

/// `value` if it is finite and above 0.
pub(crate) fn positive(name: &str, value: f64) -> Result<f64, Error> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(Error::Invalid(format!(
            "{name} must be a positive number, not {value}"
        )))
    }
}

/// `value` if it is finite and not negative.
pub(crate) fn non_negative(name: &str, value: f64) -> Result<f64, Error> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(Error::Invalid(format!(
            "{name} must be a number >= 0, not {value}"
        )))
    }
}
