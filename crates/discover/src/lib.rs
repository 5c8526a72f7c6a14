//! Discovering a machine: what `zpoolsim discover` and `calibrate` do, and what `bench` asks
//! of the machine.
//!
//! Only `runner` touches the machine: it reads /sys and /proc, asks the kernel about files
//! and file systems, makes and removes our own files and runs the tools, each output bounded
//! in size. `describe` writes the system file of a pool as a pure function of what the tools
//! printed (read by zpoolsim-parse), in `system_toml`'s format; `calibrate` measures a disk
//! nothing uses, zone by zone, with fio.
//!
//! The door: [`discover`], [`pools`], [`calibrate`], [`describe`] and what it reads
//! ([`Captured`], [`Leaf`]), the [`runner`] for the bench, and one error, [`MeasureError`].

mod calibrate;
mod describe;
pub mod runner;
mod system_toml;
#[cfg(test)]
mod tests;

pub use calibrate::{run as calibrate, Calibration};
pub use describe::{describe, Captured, Leaf};
pub use runner::pools;

use std::fmt;

/// Why a measurement could not be made or read: one sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MeasureError {
    /// Refused before anything ran: a device in use, a directory not on ZFS, a missing tool,
    /// a workload fio cannot run as the model means it.
    Refused(String),
    /// A tool, fio or a file of the machine failed, or printed what cannot be read.
    Failed(String),
}

impl fmt::Display for MeasureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeasureError::Refused(s) | MeasureError::Failed(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for MeasureError {}

/// What a tool printed and cannot be read is a failure of the measurement.
impl From<parse::Error> for MeasureError {
    fn from(e: parse::Error) -> MeasureError {
        MeasureError::Failed(e.0)
    }
}

/// Every fallible step of discovery fails with a sentence-long `MeasureError`.
pub type Result<T> = std::result::Result<T, MeasureError>;

/// The system file of this machine and one of its pools, in the format of examples/.
pub fn discover(pool: &str, catalog: &model::Catalog) -> Result<String> {
    let captured = runner::capture(pool)?;
    describe::describe(pool, None, &captured, catalog)
}

impl MeasureError {
    /// A failure, from a sentence, as the `Err` it is returned as.
    pub fn fail<T>(message: impl Into<String>) -> Result<T> {
        Err(MeasureError::Failed(message.into()))
    }

    /// A refusal, from a sentence, as the `Err` it is returned as.
    pub fn refuse<T>(message: impl Into<String>) -> Result<T> {
        Err(MeasureError::Refused(message.into()))
    }
}
