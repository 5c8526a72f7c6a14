//! fio's JSON output (`--output-format=json`): what the application saw, summed over the jobs
//! of a run: bytes and operations per second each way and the mean latency of a request.

use crate::{fail, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What fio's application saw in one run, summed over its jobs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// Bytes read per second.
    pub read_bytes_per_s: f64,
    /// Bytes written per second.
    pub write_bytes_per_s: f64,
    /// Requests per second, reads and writes together.
    pub iops: f64,
    /// Mean completion latency over reads and writes, weighted by their counts (lat_ns).
    pub mean_latency_s: f64,
}

impl Measured {
    /// Bytes per second both ways: what a mixed workload is scored on.
    pub fn throughput_bytes_per_s(&self) -> f64 {
        self.read_bytes_per_s + self.write_bytes_per_s
    }
}

/// fio's JSON document, past the notes ("fio: ...") it prints before it when a job warns.
fn document(json: &str) -> Result<Value> {
    let start = json.find('{').unwrap_or(0);
    serde_json::from_str(&json[start..]).or_else(|e| fail(format!("fio printed no JSON: {e}")))
}

/// The first error number a job of the run ended with (fio's `td->error`, an errno: 28 is
/// ENOSPC), where one did.
pub fn job_error(json: &str) -> Option<i64> {
    let v = document(json).ok()?;
    v.get("jobs")?
        .as_array()?
        .iter()
        .filter_map(|job| job["error"].as_i64())
        .find(|&e| e != 0)
}

/// Reads fio's JSON output into the rates and latency of the run, summed over its jobs.
pub fn parse(json: &str) -> Result<Measured> {
    let v = document(json)?;
    let Some(jobs) = v.get("jobs").and_then(Value::as_array) else {
        return fail("fio's JSON has no jobs");
    };
    let mut m = Measured {
        read_bytes_per_s: 0.0,
        write_bytes_per_s: 0.0,
        iops: 0.0,
        mean_latency_s: 0.0,
    };
    let (mut ios, mut latency_sum) = (0.0, 0.0);
    for job in jobs {
        for (dir, bytes) in [
            ("read", &mut m.read_bytes_per_s),
            ("write", &mut m.write_bytes_per_s),
        ] {
            let f = |k: &str| job[dir][k].as_f64().unwrap_or(0.0);
            *bytes += f("bw_bytes");
            m.iops += f("iops");
            let n = f("total_ios");
            ios += n;
            latency_sum += n * job[dir]["lat_ns"]["mean"].as_f64().unwrap_or(0.0) / 1e9;
        }
    }
    if ios > 0.0 {
        m.mean_latency_s = latency_sum / ios;
    }
    Ok(m)
}

/// Four percentiles of a completion-time distribution, in seconds: fio's measured clat of one
/// side of a run, or the simulation's prediction (`predict --latency`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    /// Median, seconds.
    pub p50: f64,
    /// 90th percentile, seconds.
    pub p90: f64,
    /// 99th percentile, seconds.
    pub p99: f64,
    /// 99.9th percentile, seconds.
    pub p999: f64,
}

/// fio's completion-latency percentiles of one side of a run (`read` or `write`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SideClat {
    /// `read` or `write`.
    pub side: &'static str,
    /// Its completion-latency percentiles.
    #[serde(flatten)]
    pub clat_s: Percentiles,
}

/// The clat percentiles (p50, p90, p99, p99.9) of each side of the run that moved data, as
/// fio reports them with `group_reporting` (one job: `jobs[0]`, `clat_ns.percentile`, keys
/// such as "99.900000"); none where fio printed no percentiles (`clat_percentiles=0`).
pub fn clat_percentiles(json: &str) -> Vec<SideClat> {
    let Ok(v) = document(json) else {
        return Vec::new();
    };
    let Some(job) = v["jobs"].as_array().and_then(|j| j.first()) else {
        return Vec::new();
    };
    ["read", "write"]
        .into_iter()
        .filter(|side| job[*side]["total_ios"].as_f64().unwrap_or(0.0) > 0.0)
        .filter_map(|side| {
            let p = &job[side]["clat_ns"]["percentile"];
            let at = |key: &str| p[key].as_f64().map(|ns| ns / 1e9);
            Some(SideClat {
                side,
                clat_s: Percentiles {
                    p50: at("50.000000")?,
                    p90: at("90.000000")?,
                    p99: at("99.000000")?,
                    p999: at("99.900000")?,
                },
            })
        })
        .collect()
}
