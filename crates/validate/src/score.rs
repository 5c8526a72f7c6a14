//! Validation cases: a published measurement, the system and workload that produced it, and
//! how far a prediction lands from it. Reading the case files is the caller's; this module
//! parses their text and scores predictions.

use crate::predict::Prediction;
use crate::resources::Kind;
use serde::{Deserialize, Serialize};

/// A file of cases from one source.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// The source text the cases quote.
    pub source: String,
    #[serde(default, rename = "case")]
    pub cases: Vec<Case>,
    #[serde(default, rename = "excluded")]
    pub excluded: Vec<Excluded>,
}

/// One published measurement.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    /// The source's words for the number.
    pub quote: String,
    /// The system file, relative to the case file.
    pub system: String,
    /// The pool's ashift when the source ran the same system with another one.
    pub ashift: Option<u8>,
    /// The workload, as `zpoolsim predict --workload` takes it.
    pub workload: String,
    /// `throughput` (bytes/s), `iops` or `device-throughput` (bytes/s per disk).
    pub metric: Metric,
    /// `MB/s`, `MiB/s` or `ops/s`.
    pub unit: String,
    /// A value or a [low, high] range.
    pub measured: Measured,
    /// The kind of resource the source names as the limit (`disk`, `cpu`, `bus`), if it does.
    pub bottleneck: Option<String>,
    /// Set when a catalog figure the model uses is this very measurement: shown, but not
    /// counted in the error statistics.
    #[serde(default)]
    pub calibration: bool,
    pub note: Option<String>,
}

/// A published number the model is not asked to reproduce, and why.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Excluded {
    pub id: String,
    pub quote: String,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Application bytes per second.
    Throughput,
    /// Application requests per second.
    Iops,
    /// Bytes per second one disk moves, averaged over the disks in use.
    DeviceThroughput,
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Measured {
    Value(f64),
    Range([f64; 2]),
}

impl Measured {
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
        "ops/s" => Some(1.0),
        _ => None,
    }
}

/// Signed error of `predicted` against a measured range, in percent of the nearest bound:
/// 0 inside the range.
pub fn error_pct(predicted: f64, (low, high): (f64, f64)) -> f64 {
    if predicted < low {
        (predicted - low) / low * 100.0
    } else if predicted > high {
        (predicted - high) / high * 100.0
    } else {
        0.0
    }
}

/// Median of absolute values (0 for none).
pub fn median_abs(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().map(|x| x.abs()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// Reads a case file.
pub fn parse(text: &str) -> Result<CaseFile, String> {
    let file: CaseFile = toml::from_str(text).map_err(|e| e.message().to_string())?;
    for c in &file.cases {
        if unit_scale(&c.unit).is_none() {
            return Err(format!(
                "case {}: unknown unit '{}' (MB/s, MiB/s, ops/s)",
                c.id, c.unit
            ));
        }
    }
    Ok(file)
}

/// A case scored against a prediction and the rule-of-thumb baseline.
#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    pub id: String,
    pub quote: String,
    pub unit: String,
    /// [low, high] in `unit`; equal for a single value.
    pub measured: [f64; 2],
    pub predicted: f64,
    pub error_pct: f64,
    pub baseline: Option<f64>,
    pub baseline_error_pct: Option<f64>,
    pub bottleneck_expected: Option<String>,
    pub bottleneck_predicted: String,
    pub bottleneck_agrees: Option<bool>,
    pub calibration: bool,
}

/// Whether the resource kind the model names is the kind the source names.
fn agrees(expected: &str, kind: Kind) -> bool {
    match expected {
        "disk" => matches!(kind, Kind::Disk | Kind::Vdev),
        "cpu" => kind == Kind::Cpu,
        "bus" => matches!(kind, Kind::Link | Kind::Controller | Kind::Port),
        _ => false,
    }
}

/// Scores one case. `baseline` is the rule of thumb in the same base unit as the prediction
/// (bytes/s or operations/s).
pub fn score(case: &Case, p: &Prediction, baseline: Option<f64>) -> CaseResult {
    let scale = unit_scale(&case.unit).unwrap_or(1.0);
    let raw = match case.metric {
        Metric::Throughput => p.throughput_bytes_per_s,
        Metric::Iops => p.iops,
        Metric::DeviceThroughput => {
            let total: f64 = p
                .devices
                .iter()
                .map(|d| d.read_bytes_per_s + d.write_bytes_per_s)
                .sum();
            total / p.devices.len().max(1) as f64
        }
    };
    let predicted = raw / scale;
    let bounds = case.measured.bounds();
    let baseline = baseline
        .filter(|_| case.metric != Metric::DeviceThroughput)
        .map(|b| b / scale);
    CaseResult {
        id: case.id.clone(),
        quote: case.quote.clone(),
        unit: case.unit.clone(),
        measured: [bounds.0, bounds.1],
        predicted,
        error_pct: error_pct(predicted, bounds),
        baseline,
        baseline_error_pct: baseline.map(|b| error_pct(b, bounds)),
        bottleneck_expected: case.bottleneck.clone(),
        bottleneck_predicted: p
            .utilizations
            .first()
            .map_or_else(String::new, crate::bottleneck::named),
        bottleneck_agrees: case
            .bottleneck
            .as_deref()
            .map(|e| agrees(e, p.bottleneck.kind)),
        calibration: case.calibration,
    }
}

/// The whole corpus: every case, the excluded measurements, and the error statistics of the
/// model and of the baseline over the cases that are not calibrations.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub cases: Vec<CaseResult>,
    pub excluded: Vec<Excluded>,
    pub median_abs_error_pct: f64,
    pub worst_abs_error_pct: f64,
    pub baseline_median_abs_error_pct: f64,
    pub baseline_worst_abs_error_pct: f64,
    pub bottlenecks_named: usize,
    pub bottlenecks_agreeing: usize,
}

pub fn summarize(cases: Vec<CaseResult>, excluded: Vec<Excluded>) -> Summary {
    let counted: Vec<&CaseResult> = cases.iter().filter(|c| !c.calibration).collect();
    let ours: Vec<f64> = counted.iter().map(|c| c.error_pct).collect();
    let base: Vec<f64> = counted
        .iter()
        .filter_map(|c| c.baseline_error_pct)
        .collect();
    let worst = |v: &[f64]| v.iter().map(|x| x.abs()).fold(0.0, f64::max);
    Summary {
        median_abs_error_pct: median_abs(&ours),
        worst_abs_error_pct: worst(&ours),
        baseline_median_abs_error_pct: median_abs(&base),
        baseline_worst_abs_error_pct: worst(&base),
        bottlenecks_named: cases
            .iter()
            .filter(|c| c.bottleneck_agrees.is_some())
            .count(),
        bottlenecks_agreeing: cases
            .iter()
            .filter(|c| c.bottleneck_agrees == Some(true))
            .count(),
        cases,
        excluded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_a_range_is_no_error() {
        assert_eq!(error_pct(435.0, (430.0, 440.0)), 0.0);
        assert!((error_pct(400.0, (430.0, 440.0)) + 6.976_744).abs() < 1e-5);
        assert!((error_pct(462.0, (440.0, 440.0)) - 5.0).abs() < 1e-9);
    }

    #[test]
    fn median_of_absolute_errors() {
        assert_eq!(median_abs(&[-3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median_abs(&[-4.0, 1.0, 2.0, 10.0]), 3.0);
        assert_eq!(median_abs(&[]), 0.0);
    }

    #[test]
    fn parses_cases() {
        let f = parse(
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
        assert!(parse("source = 1").is_err());
    }
}
