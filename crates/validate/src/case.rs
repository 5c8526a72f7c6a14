//! A case file as written: one source's published measurements, each with the system file and
//! workload that produced it, and the numbers it publishes that no description can produce.

use crate::ValidateError;
use serde::{Deserialize, Serialize};

/// A file of cases from one source.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseFile {
    /// The source text the cases quote.
    pub source: String,
    /// What the source states of its machine and method (validation/sources.md): A, B or C.
    pub grade: Option<Grade>,
    #[serde(default, rename = "case")]
    pub cases: Vec<Case>,
    #[serde(default, rename = "excluded")]
    pub excluded: Vec<Excluded>,
}

/// One published measurement.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The case's name, as reports cite it.
    pub id: String,
    /// The source's words for the number.
    pub quote: String,
    /// The system file, relative to the case file.
    pub system: String,
    /// The pool's ashift when the source ran the same system with another one.
    pub ashift: Option<u8>,
    /// The pool's layout when the source ran the same machine with several: it goes on the
    /// system's first disks.
    pub layout: Option<String>,
    /// The dataset the run used, by name, where the system file declares several (one per
    /// property set the source compared): it becomes the first, the one workloads run on.
    pub dataset: Option<String>,
    /// The compression ratio the pool recorded for the data the run wrote, where the source
    /// gives it (`zfs get compressratio` of the dataset before and after) and the run's data is
    /// a benchmark's random buffers: only holes in its records compress, so each record holds
    /// 1/ratio of random blocks (`Data::Sparse`).
    pub compressratio: Option<f64>,
    /// The workload, as `zpoolsim predict --workload` takes it.
    pub workload: String,
    /// `throughput` (bytes/s), `iops`, `device-throughput` (bytes/s per disk),
    /// `read-throughput` / `write-throughput` / `read-iops` / `write-iops` (one side of a mixed
    /// workload), or a percentile of fio's completion latency (`clat-p50`, `clat-p90`,
    /// `clat-p99`, `clat-p999`) or of its fsync/fdatasync latency (`sync-p50` ... `sync-p999`).
    pub metric: Metric,
    /// `MB/s`, `MiB/s` or `ops/s`; `s`, `ms`, `us` or `ns` for a latency.
    pub unit: String,
    /// A value or a [low, high] range.
    pub measured: Measured,
    /// The kind of resource the source names as the limit (`disk`, `cpu`, `bus`), if it does.
    pub bottleneck: Option<String>,
    /// Set when a catalog figure the model uses is this very measurement: shown, but not
    /// counted in the error statistics.
    #[serde(default)]
    pub calibration: bool,
    /// Anything a reader of the case should know (how the number was read, what differs).
    pub note: Option<String>,
}

/// A published number the model is not asked to reproduce, and why.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Excluded {
    /// The number's name, as a case's would be.
    pub id: String,
    /// The source's words for it.
    pub quote: String,
    /// Why the model is not asked to reproduce it.
    pub reason: String,
}

/// A source's grade (validation/sources.md): A states its machine and method whole, B leaves
/// some inputs to the documented defaults, C states little beyond the layout and the method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
pub enum Grade {
    /// States its machine and method whole.
    A,
    /// Leaves some inputs to the documented defaults.
    B,
    /// States little beyond the layout and the method.
    C,
}

/// What a case's number measures, and so which predicted figure it is scored against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Application bytes per second.
    Throughput,
    /// Application requests per second.
    Iops,
    /// Bytes per second one disk moves, averaged over the disks in use.
    DeviceThroughput,
    /// The read side of a mixed workload, application bytes per second (fio's `read:` line).
    ReadThroughput,
    /// The write side of a mixed workload (fio's `write:` line).
    WriteThroughput,
    /// The read side of a mixed workload in requests per second (fio's `read: IOPS=`).
    ReadIops,
    /// The write side of a mixed workload in requests per second (fio's `write: IOPS=`).
    WriteIops,
    /// The median of fio's completion latency (`clat`), against the simulation's (`latency_s`).
    ClatP50,
    /// The 90th percentile of fio's completion latency.
    ClatP90,
    /// The 99th percentile of fio's completion latency.
    ClatP99,
    /// The 99.9th percentile of fio's completion latency.
    ClatP999,
    /// The median of fio's `sync percentiles` (the fsync/fdatasync calls of a job writing with
    /// `fsync=N` or `fdatasync=N`), against the simulation's completion time of a write with its
    /// sync.
    SyncP50,
    /// The 90th percentile of fio's `sync percentiles`.
    SyncP90,
    /// The 99th percentile of fio's `sync percentiles`.
    SyncP99,
    /// The 99.9th percentile of fio's `sync percentiles`.
    SyncP999,
}

/// Which of the simulation's percentiles a latency metric is scored against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Percentile {
    /// The median.
    P50,
    /// The 90th percentile.
    P90,
    /// The 99th percentile.
    P99,
    /// The 99.9th percentile.
    P999,
}

impl Metric {
    /// A latency percentile: predicted by the discrete-event simulation, whose figures the
    /// fitted constants do not steer through the mean-value model alone, so these cases are
    /// scored but neither refit nor cross-validated.
    pub fn is_latency(self) -> bool {
        self.percentile().is_some()
    }

    /// The simulated percentile a latency metric is scored against; `None` for a rate.
    pub fn percentile(self) -> Option<Percentile> {
        match self {
            Metric::ClatP50 | Metric::SyncP50 => Some(Percentile::P50),
            Metric::ClatP90 | Metric::SyncP90 => Some(Percentile::P90),
            Metric::ClatP99 | Metric::SyncP99 => Some(Percentile::P99),
            Metric::ClatP999 | Metric::SyncP999 => Some(Percentile::P999),
            _ => None,
        }
    }
}

impl Case {
    /// Whether the case takes part in fitting the constants and their cross-validation.
    pub fn in_fit(&self) -> bool {
        !self.calibration && !self.metric.is_latency()
    }
}

/// A published number: one value, or a range where the source gives one (or several runs).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Measured {
    /// One value.
    Value(f64),
    /// `[low, high]`, in either order.
    Range([f64; 2]),
}

impl Measured {
    /// The lowest and highest value, equal for one value.
    pub fn bounds(&self) -> (f64, f64) {
        match *self {
            Measured::Value(v) => (v, v),
            Measured::Range([a, b]) => (a.min(b), a.max(b)),
        }
    }
}

/// Bytes (or operations) per second in one `unit`.
pub fn unit_scale(unit: &str) -> Option<f64> {
    match unit {
        "MB/s" => Some(1e6),
        "MiB/s" => Some(1_048_576.0),
        // bonnie++'s K/s (KiB/s) divided by 1000, as Calomel's table gives it.
        "1000 KiB/s" => Some(1_024_000.0),
        "ops/s" => Some(1.0),
        // Latencies: seconds per unit.
        "s" => Some(1.0),
        "ms" => Some(1e-3),
        "us" => Some(1e-6),
        // fio's JSON gives its percentiles in nanoseconds (`clat_ns`).
        "ns" => Some(1e-9),
        _ => None,
    }
}

/// Reads a case file.
pub(crate) fn parse(name: &str, text: &str) -> Result<CaseFile, ValidateError> {
    let bad = |message: String| ValidateError::CaseFile {
        file: name.to_string(),
        message,
    };
    let file: CaseFile = toml::from_str(text).map_err(|e| bad(e.message().to_string()))?;
    for c in &file.cases {
        if c.compressratio
            .is_some_and(|r| !(1.0..=1000.0).contains(&r))
        {
            return Err(bad(format!(
                "case {}: compressratio is 1.0 to 1000, as zfs get compressratio reports it",
                c.id
            )));
        }
        if unit_scale(&c.unit).is_none() {
            return Err(bad(format!(
                "case {}: unknown unit '{}' (MB/s, MiB/s, 1000 KiB/s, ops/s; s, ms, us, ns)",
                c.id, c.unit
            )));
        }
        // A latency in a rate's unit (or the reverse) would be scaled by a meaningless factor.
        if c.metric.is_latency() != matches!(c.unit.as_str(), "s" | "ms" | "us" | "ns") {
            return Err(bad(format!(
                "case {}: unit '{}' does not fit metric {:?} (latencies take s, ms, us or ns)",
                c.id, c.unit, c.metric
            )));
        }
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LATENCY: &str = r#"source = "x"
[[case]]
id = "a"
quote = "q"
system = "s.toml"
workload = "fio-randread"
metric = "clat-p99"
unit = "UNIT"
measured = 14.1
"#;

    #[test]
    fn latency_cases_take_a_time_unit() {
        let f = parse("x.toml", &LATENCY.replace("UNIT", "ms")).expect("parses");
        assert_eq!(f.cases[0].metric, Metric::ClatP99);
        assert!(!f.cases[0].in_fit());
        assert_eq!(unit_scale("ms"), Some(1e-3));
        assert_eq!(unit_scale("us"), Some(1e-6));
        let err = parse("x.toml", &LATENCY.replace("UNIT", "MB/s")).unwrap_err();
        assert!(err.to_string().contains("does not fit metric"), "{err}");
    }

    #[test]
    fn parses_cases() {
        let f = parse(
            "x.toml",
            r#"source = "seeds/x.txt"
[[case]]
id = "a"
quote = "q"
system = "s.toml"
workload = "dd-read"
metric = "throughput"
unit = "MB/s"
measured = [430, 440]
bottleneck = "cpu"
[[excluded]]
id = "b"
quote = "q"
reason = "r"
"#,
        )
        .unwrap();
        assert_eq!(f.cases[0].measured.bounds(), (430.0, 440.0));
        assert_eq!(f.excluded.len(), 1);
        assert!(parse("x.toml", "source = 1").is_err());
    }
}
