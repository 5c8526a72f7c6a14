//! The performance model of zpoolsim: from a machine, its pool and a workload to throughput,
//! IOPS, latency, the utilisation of every resource, the bottleneck and the error to expect.
//!
//! One module per stage of ZFS's I/O path, as OpenZFS names them: the application's calls
//! (`app`), the ARC's hits (`arc`), the txg's writes and the write throttle (`txg`, `release`),
//! the ZIL (`zil`), compression (`compress`), the records' fan-out over raidz, dRAID and
//! mirror vdevs (`zio`, `vdev`), the leaves' service times and command queueing (`leaf`),
//! the paths from the disks to memory (`path`, `bus`) and the CPU's costs by part (`cpu`);
//! `demand` gathers each resource's work per job, `predict` solves the closed network by Mean
//! Value Analysis (`mva`) and names the bottleneck (`bottleneck`). Fitted constants live in
//! `constants`, what each release does differently in `release`.

mod app;
mod arc;
mod band;
mod baseline;
mod bottleneck;
mod bus;
mod compress;
mod constants;
mod cpu;
mod demand;
mod leaf;
mod mva;
mod path;
mod predict;
mod rebuild;
mod release;
#[cfg(test)]
mod testkit;
mod txg;
mod unseen;
mod vdev;
mod zil;
mod zio;

pub use band::{Band, ErrorClass, Pattern, BANDS, OVERALL};
pub use baseline::rule_of_thumb;
pub use bottleneck::{named, Bottleneck};
pub use constants::{Constants, Param, PARAMS};
pub use path::Kind;
pub use predict::{
    predict, predict_with, sweep, DeviceFigures, Prediction, Utilization, VdevFigures,
    MAX_SWEEP_WORK,
};
pub use rebuild::{rebuild_path, RebuildPath, SharedPath};

use std::fmt;

/// Why a prediction could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PerfError {
    /// The system description cannot carry the workload (missing disks, dangling links).
    System(String),
    /// The workload makes no sense on this system.
    Workload(String),
    /// A sweep past its work budget ([`MAX_SWEEP_WORK`]).
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
