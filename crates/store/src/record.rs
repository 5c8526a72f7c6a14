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
    pub zpoolsim_version: String,
    pub pool: String,
    pub dataset: String,
    pub directory: String,
    pub system_toml: String,
    pub runs: Vec<Run>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The workload as the model reads it, with the data set size the run used.
    pub workload: String,
    pub runtime_s: f64,
    pub data_bytes: u64,
    pub job_file: String,
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
    pub second: u32,
    pub device: String,
    pub vdev: Option<String>,
    pub read_ops_per_s: f64,
    pub write_ops_per_s: f64,
    pub read_bytes_per_s: f64,
    pub write_bytes_per_s: f64,
}
