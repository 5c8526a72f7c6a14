//! Running fio as the model's workloads on a real pool: what `zpoolsim bench` does.
//!
//! `fio_job` writes each workload as the job file fio runs (what `predict -w SPEC` predicts is
//! what fio runs); `run` checks the plan against the machine (through zpoolsim-discover's
//! runner), runs each job with `zpool iostat` sampling every disk and hands each finished run
//! to the store; `interrupt` stops it cleanly on a signal; `compare` sets measured beside
//! predicted, per workload and per disk.
//!
//! The door: [`prepare`] and [`bench`] with their [`Plan`], [`Ready`] and [`Progress`],
//! [`job_files`] and [`data_size`] for the flags, [`compare`] and its rows, and
//! [`stop_on_signals`]. Errors are zpoolsim-discover's [`MeasureError`].

mod compare;
mod fio_ini;
mod fio_job;
mod interrupt;
mod run;
mod scratch;
#[cfg(test)]
mod tests;

pub use compare::{compare, BenchComparison, DiskComparison, DiskTraffic, WorkloadComparison};
pub use discover::{MeasureError, Result};
pub use interrupt::catch as stop_on_signals;
pub use parse::fio_json::{Percentiles, SideClat};
pub use run::{
    data_size, job_files, prepare, run as bench, with_size, Keep, Plan, Progress, Ready,
    DEFAULT_WORKLOADS,
};
