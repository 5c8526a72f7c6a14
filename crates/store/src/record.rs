//! What a bench keeps: the machine as discovered and, per workload, fio's result, the
//! prediction made before it and the disks' samples. The store reads and writes these.

use parse::fio_json::Measured;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One bench: the machine as discovered, and a run per workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bench {
    /// Its row in the database (absent before it is stored).
    pub id: Option<i64>,
    /// Its own id in every database it is copied to (`results --push`).
    pub uid: String,
    /// The machine it ran on.
    pub host: crate::Host,
    /// UTC, RFC 3339.
    pub started: String,
    /// The zpoolsim that ran it.
    pub zpoolsim_version: String,
    /// The pool benched.
    pub pool: String,
    /// The dataset benched.
    pub dataset: String,
    /// The directory fio's files were in.
    pub directory: String,
    /// The system file discovery wrote for the machine and pool.
    pub system_toml: String,
    /// One run per workload, in the order run.
    pub runs: Vec<Run>,
}

/// One workload's run: fio's result, the prediction made before it and the disks' samples.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The workload as the model reads it, with the data set size the run used.
    pub workload: String,
    /// How long fio ran it, seconds.
    pub runtime_s: f64,
    /// Bytes of the data set the run used.
    pub data_bytes: u64,
    /// The fio job file it ran.
    pub job_file: String,
    /// What fio measured.
    pub measured: Measured,
    /// `zpoolsim predict`'s JSON for this workload, made before the run.
    pub prediction: serde_json::Value,
    /// fio's JSON output, as fio printed it.
    pub fio_json: String,
    /// `zpool iostat` each second of the run, per disk.
    pub samples: Vec<Sample>,
    /// Busy fraction per disk over the run (/proc/diskstats; none for file vdevs).
    pub busy: BTreeMap<String, f64>,
}

/// One disk in one second of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Seconds since the run started.
    pub second: u32,
    /// The disk's name, as `zpool iostat -v` prints it.
    pub device: String,
    /// The top-level vdev it belongs to; `None` for a single-disk vdev.
    pub vdev: Option<String>,
    /// Read operations per second.
    pub read_ops_per_s: f64,
    /// Write operations per second.
    pub write_ops_per_s: f64,
    /// Bytes read per second.
    pub read_bytes_per_s: f64,
    /// Bytes written per second.
    pub write_bytes_per_s: f64,
}
