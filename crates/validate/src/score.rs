//! How far a prediction lands from a published measurement, and the error statistics of the
//! whole corpus beside the rule of thumb's.

use crate::case::{unit_scale, Case, Excluded, Metric, Percentile};
use perf::{Kind, Prediction};
use serde::Serialize;

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

/// The `q` quantile (0..=1) of absolute values, by linear interpolation between order
/// statistics (0 for none): `percentile_abs(v, 0.9)` is the p90 of |v|.
pub fn percentile_abs(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().map(|x| x.abs()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let at = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (at - lo as f64)
}

/// A case scored against a prediction and the rule-of-thumb baseline.
#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    /// The case's id.
    pub id: String,
    /// The source's words for the number.
    pub quote: String,
    /// The unit of `measured`, as the case file gives it.
    pub unit: String,
    /// [low, high] in `unit`; equal for a single value.
    pub measured: [f64; 2],
    /// The model's figure, in `unit`.
    pub predicted: f64,
    /// Signed error of the prediction, percent of the nearest bound (0 inside the range).
    pub error_pct: f64,
    /// The rule of thumb's figure, in `unit`, where it has one.
    pub baseline: Option<f64>,
    /// Signed error of the rule of thumb, percent.
    pub baseline_error_pct: Option<f64>,
    /// The resource the source names as the limit, if it does.
    pub bottleneck_expected: Option<String>,
    /// The resource the model names as the limit.
    pub bottleneck_predicted: String,
    /// Whether the two agree, where the source names one.
    pub bottleneck_agrees: Option<bool>,
    /// A calibration: shown, not counted in the statistics.
    pub calibration: bool,
    /// A latency percentile (`clat-*`, `sync-*`): reported per source, outside the rates' statistics.
    pub latency: bool,
}

/// The latency cases of one source: the median |error| of its p99s and of all its
/// percentiles.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyError {
    /// The case file.
    pub source: String,
    /// Its p99 cases (calibrations aside).
    pub p99_cases: usize,
    /// Median |error| of those p99s, percent.
    pub median_p99_abs_error_pct: f64,
    /// All its latency cases (calibrations aside).
    pub cases: usize,
    /// Median |error| over all of them, percent.
    pub median_abs_error_pct: f64,
}

/// The latency errors of one source's scored cases, if it has any.
pub(crate) fn latency_error(
    source: &str,
    cases: &[Case],
    results: &[CaseResult],
) -> Option<LatencyError> {
    let of = |keep: &dyn Fn(&Case) -> bool| -> Vec<f64> {
        cases
            .iter()
            .zip(results)
            .filter(|(c, _)| c.metric.is_latency() && !c.calibration && keep(c))
            .map(|(_, r)| r.error_pct)
            .collect()
    };
    let all = of(&|_| true);
    let p99 = of(&|c| c.metric.percentile() == Some(Percentile::P99));
    (!all.is_empty()).then(|| LatencyError {
        source: source.to_string(),
        p99_cases: p99.len(),
        median_p99_abs_error_pct: median_abs(&p99),
        cases: all.len(),
        median_abs_error_pct: median_abs(&all),
    })
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

/// The figure of `p` a case measures, in the case's unit.
pub(crate) fn predicted_value(case: &Case, p: &Prediction) -> f64 {
    let scale = unit_scale(&case.unit).unwrap_or(1.0);
    let raw = match case.metric {
        Metric::Throughput => p.throughput_bytes_per_s,
        Metric::Iops => p.iops,
        Metric::ReadThroughput => p.read_bytes_per_s,
        Metric::WriteThroughput => p.write_bytes_per_s,
        // A side's requests: its bytes over the bytes of one request (every request of a fio
        // job is `bs` long, so the whole's bytes per request are each side's).
        Metric::ReadIops => side_iops(p, p.read_bytes_per_s),
        Metric::WriteIops => side_iops(p, p.write_bytes_per_s),
        Metric::DeviceThroughput => {
            let total: f64 = p
                .devices
                .iter()
                .map(|d| d.read_bytes_per_s + d.write_bytes_per_s)
                .sum();
            total / p.devices.len().max(1) as f64
        }
        // NaN (never inside a range, no error figure) when the prediction was not simulated.
        m => match (m.percentile(), p.latency_s.as_ref()) {
            (Some(Percentile::P50), Some(l)) => l.p50,
            (Some(Percentile::P90), Some(l)) => l.p90,
            (Some(Percentile::P99), Some(l)) => l.p99,
            (Some(Percentile::P999), Some(l)) => l.p999,
            _ => f64::NAN,
        },
    };
    raw / scale
}

/// Requests per second of one side of a mix moving `bytes_per_s`.
fn side_iops(p: &Prediction, bytes_per_s: f64) -> f64 {
    if p.throughput_bytes_per_s > 0.0 {
        bytes_per_s * p.iops / p.throughput_bytes_per_s
    } else {
        0.0
    }
}

/// Scores one case. `baseline` is the rule of thumb in the same base unit as the prediction
/// (bytes/s or operations/s).
pub(crate) fn score(case: &Case, p: &Prediction, baseline: Option<f64>) -> CaseResult {
    let scale = unit_scale(&case.unit).unwrap_or(1.0);
    let predicted = predicted_value(case, p);
    let bounds = case.measured.bounds();
    // The rule of thumb gives rates, no latency.
    let baseline = baseline
        .filter(|_| case.metric != Metric::DeviceThroughput && !case.metric.is_latency())
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
        bottleneck_predicted: p.utilizations.first().map_or_else(String::new, perf::named),
        bottleneck_agrees: case
            .bottleneck
            .as_deref()
            .map(|e| agrees(e, p.bottleneck.kind)),
        calibration: case.calibration,
        latency: case.metric.is_latency(),
    }
}

/// The whole corpus: every case, the excluded measurements, and the error statistics of the
/// model and of the baseline over the cases that are not calibrations.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Every case, scored.
    pub cases: Vec<CaseResult>,
    /// The published numbers left out, and why.
    pub excluded: Vec<Excluded>,
    /// Median |error| of the model, percent.
    pub median_abs_error_pct: f64,
    /// Largest |error| of the model, percent.
    pub worst_abs_error_pct: f64,
    /// Median |error| of the rule of thumb, percent.
    pub baseline_median_abs_error_pct: f64,
    /// Largest |error| of the rule of thumb, percent.
    pub baseline_worst_abs_error_pct: f64,
    /// Cases whose source names a limit.
    pub bottlenecks_named: usize,
    /// Of them, those where the model names the same.
    pub bottlenecks_agreeing: usize,
    /// Per source with latency cases: the median |error| of its p99s (docs/performance-model.md).
    pub latency_by_source: Vec<LatencyError>,
}

/// The statistics of `cases`: the rates' (calibrations and latencies aside) and the
/// latencies' per source (`latency_by_source`).
pub(crate) fn summarize(
    cases: Vec<CaseResult>,
    excluded: Vec<Excluded>,
    latency_by_source: Vec<LatencyError>,
) -> Summary {
    let counted: Vec<&CaseResult> = cases
        .iter()
        .filter(|c| !c.calibration && !c.latency)
        .collect();
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
        latency_by_source,
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
    fn latency_errors_per_source() {
        let text = |metric: &str, id: &str| {
            format!(
                "[[case]]\nid = \"{id}\"\nquote = \"q\"\nsystem = \"s.toml\"\n\
                 workload = \"fio-randread\"\nmetric = \"{metric}\"\nunit = \"ms\"\nmeasured = 1\n"
            )
        };
        let file = format!(
            "source = \"x\"\n{}{}{}",
            text("clat-p50", "a"),
            text("clat-p99", "b"),
            text("sync-p99", "c")
        );
        let cases = crate::case::parse("x.toml", &file).expect("parses").cases;
        let result = |error_pct: f64| CaseResult {
            id: String::new(),
            quote: String::new(),
            unit: "ms".into(),
            measured: [1.0, 1.0],
            predicted: 1.0 + error_pct / 100.0,
            error_pct,
            baseline: None,
            baseline_error_pct: None,
            bottleneck_expected: None,
            bottleneck_predicted: String::new(),
            bottleneck_agrees: None,
            calibration: false,
            latency: true,
        };
        let results = [result(-90.0), result(-20.0), result(40.0)];
        let l = latency_error("x.toml", &cases, &results).expect("has latency cases");
        // The p99s: |-20| and |40| -> 30; all three: median of 90, 20, 40 -> 40.
        assert_eq!((l.p99_cases, l.median_p99_abs_error_pct), (2, 30.0));
        assert_eq!((l.cases, l.median_abs_error_pct), (3, 40.0));
    }

    #[test]
    fn median_of_absolute_errors() {
        assert_eq!(median_abs(&[-3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median_abs(&[-4.0, 1.0, 2.0, 10.0]), 3.0);
        assert_eq!(median_abs(&[]), 0.0);
    }
}
