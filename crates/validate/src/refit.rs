//! Fitting the performance model's global constants (perf's `PARAMS`) to the corpus, and
//! checking the fit by leaving each source out.
//!
//! The objective is the mean over the cases (calibrations aside) of |ln(predicted / measured)|,
//! 0 inside a measured range, plus a gentle pull of each constant towards its prior (a
//! constant no case informs stays where its documentation puts it). It is minimised one
//! constant at a time by golden-section search over its bounds (on a log scale for costs and
//! times, linear for shares), sweeping the constants a fixed number of times from the priors:
//! deterministic, so `--refit` reproduces the committed values exactly.

use crate::corpus::{Corpus, Loaded, Source};
use crate::score::{error_pct, median_abs, percentile_abs};
use perf::{Band, Bands, Constants, ErrorClass, Overall, Param, PARAMS};
use serde::Serialize;

/// Sweeps over the constants.
const SWEEPS: usize = 3;
/// Golden-section steps per constant and sweep: the bracket shrinks to 0.618^24 ~ 1e-5 of
/// its width.
const STEPS: usize = 24;
/// Weight of the pull towards the prior, per squared unit of the constant's scale (a factor
/// e on a log scale, the whole range on a linear one). Small: it decides only what the
/// cases leave undecided.
const PRIOR_WEIGHT: f64 = 0.002;

/// |ln(predicted / measured)| of one case under `constants`, 0 inside its range.
fn log_error(case: &Loaded, constants: &Constants) -> f64 {
    let Ok(p) = perf::predict_with(&case.system, &case.workload, constants) else {
        return 10.0;
    };
    let predicted = crate::score::predicted_value(&case.case, &p);
    let e = error_pct(predicted, case.case.measured.bounds());
    (1.0 + e / 100.0).max(1e-9).ln().abs()
}

fn penalty(param: &Param, value: f64) -> f64 {
    let d = if param.log_scale {
        (value / param.prior).ln()
    } else {
        (value - param.prior) / (param.max - param.min)
    };
    PRIOR_WEIGHT * d * d
}

/// The objective over `cases`.
fn objective(cases: &[&Loaded], constants: &Constants) -> f64 {
    let counted: Vec<&&Loaded> = cases.iter().filter(|c| c.case.in_fit()).collect();
    let fit: f64 =
        counted.iter().map(|c| log_error(c, constants)).sum::<f64>() / counted.len().max(1) as f64;
    fit + PARAMS
        .iter()
        .zip(constants.0)
        .map(|(p, v)| penalty(p, v))
        .sum::<f64>()
}

/// A constant's value at position `t` (0..1) of its range, on its scale.
fn at(param: &Param, t: f64) -> f64 {
    if param.log_scale {
        (param.min.ln() + t * (param.max.ln() - param.min.ln())).exp()
    } else {
        param.min + t * (param.max - param.min)
    }
}

/// The constants that minimise the objective over `cases`, from the priors.
pub fn fit(cases: &[&Loaded]) -> Constants {
    let mut c = Constants::priors();
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..SWEEPS {
        for (i, param) in PARAMS.iter().enumerate() {
            let value = |t: f64, c: &mut Constants| {
                c.0[i] = at(param, t);
                objective(cases, c)
            };
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            let mut x1 = hi - ratio * (hi - lo);
            let mut x2 = lo + ratio * (hi - lo);
            let mut trial = c;
            let (mut f1, mut f2) = (value(x1, &mut trial), value(x2, &mut trial));
            for _ in 0..STEPS {
                if f1 <= f2 {
                    hi = x2;
                    (x2, f2) = (x1, f1);
                    x1 = hi - ratio * (hi - lo);
                    f1 = value(x1, &mut trial);
                } else {
                    lo = x1;
                    (x1, f1) = (x2, f2);
                    x2 = lo + ratio * (hi - lo);
                    f2 = value(x2, &mut trial);
                }
            }
            // Keep the current value unless the search found better.
            let best = if f1 <= f2 { x1 } else { x2 };
            let mut candidate = c;
            candidate.0[i] = at(param, best);
            if objective(cases, &candidate) < objective(cases, &c) {
                c = candidate;
            }
        }
    }
    c
}

/// Every case of the corpus.
pub fn all_cases(corpus: &Corpus) -> Vec<&Loaded> {
    corpus.cases().collect()
}

/// One held-out prediction.
#[derive(Debug, Clone, Serialize)]
pub struct HeldOut {
    pub id: String,
    pub source: String,
    pub class: ErrorClass,
    pub error_pct: f64,
}

/// Leave-one-source-out cross-validation: for each source, the constants refitted on the
/// others, and its cases predicted with them.
#[derive(Debug, Clone, Serialize)]
pub struct CrossValidation {
    pub cases: Vec<HeldOut>,
    /// Median |error| over every held-out case (calibrations aside).
    pub median_abs_error_pct: f64,
    /// 90th percentile of the same.
    pub p90_abs_error_pct: f64,
    /// Per source: the median and 90th percentile |error| of its cases held out.
    pub by_source: Vec<SourceError>,
    /// Per class of workload and medium: median |error|, cases and sources.
    pub by_class: Vec<Band>,
}

impl CrossValidation {
    /// The error bands these figures make, as perf's bands file
    /// (crates/perf/data/bands.toml, which `--cv -o FILE` writes) holds them.
    pub fn bands(&self) -> Bands {
        Bands {
            overall: Overall {
                median_pct: self.median_abs_error_pct,
                p90_pct: self.p90_abs_error_pct,
                cases: self.cases.len() as u32,
            },
            classes: self.by_class.clone(),
        }
    }
}

/// One source held out: its case file and the median and 90th percentile |error| of its
/// cases, percent.
#[derive(Debug, Clone, Serialize)]
pub struct SourceError {
    pub source: String,
    pub median_pct: f64,
    pub p90_pct: f64,
}

/// Cross-validates the corpus.
pub fn cross_validate(corpus: &Corpus) -> CrossValidation {
    let mut cases = Vec::new();
    let mut by_source = Vec::new();
    // A source of latencies alone holds nothing the fit uses: leaving it out changes nothing.
    for held in corpus
        .sources
        .iter()
        .filter(|s| s.cases.iter().any(|c| c.case.in_fit()))
    {
        let others: Vec<&Loaded> = corpus
            .sources
            .iter()
            .filter(|s| s.file != held.file)
            .flat_map(|s| &s.cases)
            .collect();
        let constants = fit(&others);
        let errors = held_out(held, &constants);
        let pct: Vec<f64> = errors.iter().map(|h| h.error_pct).collect();
        by_source.push(SourceError {
            source: held.file.clone(),
            median_pct: median_abs(&pct),
            p90_pct: percentile_abs(&pct, 0.9),
        });
        cases.extend(errors);
    }
    let all: Vec<f64> = cases.iter().map(|h| h.error_pct).collect();
    let mut by_class: Vec<Band> = Vec::new();
    for h in &cases {
        if by_class.iter().any(|b| b.class == h.class) {
            continue;
        }
        let members: Vec<&HeldOut> = cases.iter().filter(|o| o.class == h.class).collect();
        let errors: Vec<f64> = members.iter().map(|o| o.error_pct).collect();
        let mut sources: Vec<&str> = members.iter().map(|o| o.source.as_str()).collect();
        sources.dedup();
        by_class.push(Band {
            class: h.class,
            median_pct: median_abs(&errors),
            p90_pct: percentile_abs(&errors, 0.9),
            cases: errors.len() as u32,
            sources: sources.len() as u32,
        });
    }
    CrossValidation {
        median_abs_error_pct: median_abs(&all),
        p90_abs_error_pct: percentile_abs(&all, 0.9),
        cases,
        by_source,
        by_class,
    }
}

/// The non-calibration cases of `source` predicted with `constants`.
fn held_out(source: &Source, constants: &Constants) -> Vec<HeldOut> {
    source
        .cases
        .iter()
        .filter(|c| c.case.in_fit())
        .filter_map(|c| {
            let p = perf::predict_with(&c.system, &c.workload, constants).ok()?;
            let predicted = crate::score::predicted_value(&c.case, &p);
            Some(HeldOut {
                id: c.case.id.clone(),
                source: source.file.clone(),
                class: ErrorClass::of(&c.system, &c.workload),
                error_pct: error_pct(predicted, c.case.measured.bounds()),
            })
        })
        .collect()
}
