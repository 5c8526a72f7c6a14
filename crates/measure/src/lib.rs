//! Measuring a real pool: what `zpoolsim discover`, `bench`, `results` and `calibrate` do.
//!
//! The parsers (`lsblk`, `sysfs`, `smartctl`, `lspci`, `cpuinfo`, `release`, `zpool_status`,
//! `zpool_list`, `zfs_get`, `iostat`, `diskstats`, `fio_json`) are pure functions over text a
//! tool printed, so they are tested on captured outputs of real machines. Only `runner` touches
//! the machine: it reads /sys and /proc and runs the tools, each output bounded in size.
//! `discover`, `bench` and `calibrate` join the two; `system_toml` and `fio_job` write what the
//! model reads and what fio runs; `store` keeps results in SQLite; `compare` sets measured
//! beside predicted.

pub mod bench;
pub mod calibrate;
pub mod compare;
pub mod cpuinfo;
pub mod discover;
pub mod diskstats;
pub mod fio_job;
pub mod fio_json;
pub mod host;
pub mod interrupt;
pub mod iostat;
pub mod lsblk;
pub mod lspci;
pub mod release;
pub mod runner;
pub mod smartctl;
pub mod store;
pub mod sysfs;
pub mod system_toml;
pub mod zfs_get;
pub mod zpool_list;
pub mod zpool_status;

use std::fmt;

/// Why a measurement could not be made or read: one sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeasureError(pub String);

impl fmt::Display for MeasureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MeasureError {}

pub type Result<T> = std::result::Result<T, MeasureError>;

/// An error from a sentence.
pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(MeasureError(message.into()))
}
