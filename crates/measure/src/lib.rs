//! Measuring a real pool: what `zpoolsim discover`, `bench`, `results` and `calibrate` do.
//!
//! The parsers (`lsblk`, `sysfs`, `smartctl`, `lspci`, `cpuinfo`, `release`, `zpool_status`,
//! `zpool_list`, `zfs_get`, `mountinfo`, `iostat`, `diskstats`, `fio_json`) are pure functions over text a
//! tool printed, so they are tested on captured outputs of real machines. Only `runner` touches
//! the machine: it reads /sys and /proc, asks the kernel about files and file systems, makes
//! and removes our own files and runs the tools, each output bounded in size. `discover`,
//! `bench` and `calibrate` join the two; `system_toml` and `fio_job` write what the model reads
//! and what fio runs; `record` is what a bench keeps (`host`: on which machine), `store` keeps
//! it in SQLite or PostgreSQL; `compare` sets measured beside predicted.
//!
//! The surface is small: [`discover`], [`prepare`] and [`bench`], [`calibrate`], [`compare`],
//! the [`Store`], their types, and one error, [`MeasureError`].

mod bench;
mod calibrate;
mod compare;
mod cpuinfo;
mod discover;
mod diskstats;
mod fio_job;
mod fio_json;
mod host;
mod interrupt;
mod iostat;
mod lsblk;
mod lspci;
mod mountinfo;
mod record;
mod release;
mod runner;
mod smartctl;
mod store;
mod sysfs;
mod system_toml;
#[cfg(test)]
mod tests;
mod zfs_get;
mod zfs_label;
mod zpool_list;
mod zpool_status;

pub use bench::{
    data_size, job_files, prepare, run as bench, with_size, Plan, Progress, Ready,
    DEFAULT_WORKLOADS,
};
pub use calibrate::{run as calibrate, Calibration};
pub use compare::{compare, BenchComparison, DiskComparison, DiskTraffic, WorkloadComparison};
pub use fio_json::Measured;
pub use host::Host;
pub use interrupt::catch as stop_on_signals;
pub use record::{Bench, Run, Sample};
pub use runner::pools;
pub use store::{
    default_path, new_uid, utc, BenchSummary, FleetPage, FleetQuery, FleetRow, FleetWorkload,
    Location, Pushed, Server, Store, StorePool, ANSWER_WAIT, CONNECT_WAIT, LOCK_WAIT,
    STATEMENT_WAIT,
};
pub use zfs_label::is_label as is_zfs_label;

use std::fmt;

/// Why a measurement could not be made or read: one sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MeasureError {
    /// Refused before anything ran: a device in use, a directory not on ZFS, a missing tool,
    /// a workload fio cannot run as the model means it.
    Refused(String),
    /// A tool, fio or a file of the machine failed, or printed what cannot be read.
    Failed(String),
    /// The results database.
    Store(String),
}

impl fmt::Display for MeasureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeasureError::Refused(s) | MeasureError::Failed(s) | MeasureError::Store(s) => {
                f.write_str(s)
            }
        }
    }
}

impl std::error::Error for MeasureError {}

pub type Result<T> = std::result::Result<T, MeasureError>;

/// The system file of this machine and one of its pools, in the format of examples/.
pub fn discover(pool: &str, catalog: &model::Catalog) -> Result<String> {
    let captured = runner::capture(pool)?;
    discover::describe(pool, None, &captured, catalog)
}

/// A failure, from a sentence.
pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(MeasureError::Failed(message.into()))
}

/// A refusal, from a sentence.
pub(crate) fn refuse<T>(message: impl Into<String>) -> Result<T> {
    Err(MeasureError::Refused(message.into()))
}
