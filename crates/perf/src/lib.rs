//! The performance model of zpoolsim: from a machine, its pool and a workload to throughput,
//! IOPS, latency, the utilisation of every resource and the bottleneck.
//!
//! The workload is turned into device I/O as ZFS issues it (`zio`, `demand`), each resource's
//! service demand per job is computed from hardware facts (`disk`, `bus`, `resources`; a
//! hard disk's reordering of its queue in `queue`), and the closed network is solved exactly
//! by Mean Value Analysis (`mva`). Fitted constants live in `constants`, release behaviours
//! in `profile`.

mod baseline;
mod bottleneck;
mod bus;
mod constants;
mod demand;
mod disk;
mod mva;
mod predict;
mod profile;
mod queue;
mod rebuild;
mod resources;
#[cfg(test)]
mod testkit;
mod zio;

pub use baseline::rule_of_thumb;
pub use bottleneck::{named, Bottleneck};
pub use predict::{predict, sweep, DeviceFigures, Prediction, Utilization};
pub use rebuild::{rebuild_path, RebuildPath, SharedPath};
pub use resources::Kind;

use std::fmt;

/// Why a prediction could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PerfError {
    /// The system description cannot carry the workload (missing disks, dangling links).
    System(String),
    /// The workload makes no sense on this system.
    Workload(String),
}

impl fmt::Display for PerfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerfError::System(m) => write!(f, "system: {m}"),
            PerfError::Workload(m) => write!(f, "workload: {m}"),
        }
    }
}

impl std::error::Error for PerfError {}
