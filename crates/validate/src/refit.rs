//! Fitting the performance model's global constants (perf's `PARAMS`) to the corpus.
//!
//! The objective is the mean over the cases (calibrations aside) of |ln(predicted / measured)|,
//! 0 inside a measured range, plus a gentle pull of each constant towards its prior (a
//! constant no case informs stays where its documentation puts it). It is minimised one
//! constant at a time by golden-section search over its bounds (on a log scale for costs and
//! times, linear for shares), sweeping the constants a fixed number of times from the priors:
//! deterministic, so `--refit` reproduces the committed values exactly.

use crate::corpus::{Corpus, Loaded};
use crate::score::error_pct;
use perf::{Constants, Param, PARAMS};

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
    let counted: Vec<&&Loaded> = cases.iter().filter(|c| !c.case.calibration).collect();
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
