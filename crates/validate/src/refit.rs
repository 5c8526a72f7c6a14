//! Fitting the performance model's global constants (perf's `PARAMS`) to the corpus.
//!
//! The objective is the mean over the sources, a grade C source at half weight, of the mean
//! over each one's cases (calibrations aside) of |ln(predicted / measured)|, 0 inside a
//! measured range, plus a gentle pull of each constant towards its prior (a constant no case
//! informs stays where its documentation puts it). It is minimised one
//! constant at a time by golden-section search over its bounds (on a log scale for costs and
//! times, linear for shares), sweeping the constants a fixed number of times from the priors:
//! deterministic, so `--refit` reproduces the committed values exactly.

use crate::case::Grade;
use crate::corpus::{Corpus, Loaded, Source};
use crate::score::error_pct;
use perf::{Constants, Param, PARAMS};

/// Sweeps over the constants: a second sweep moves them by well under the cross-validated
/// errors; a third did not pay for its time on the grown corpus.
const SWEEPS: usize = 2;
/// Golden-section steps per constant and sweep: the bracket shrinks to 0.618^16 ~ 5e-4 of
/// its width (0.3% of a cost's value on its factor-400 range).
const STEPS: usize = 16;
/// Weight of the pull towards the prior, per squared unit of the constant's scale (a factor
/// e on a log scale, the whole range on a linear one). Small: it decides only what the
/// cases leave undecided.
const PRIOR_WEIGHT: f64 = 0.002;
/// A grade C source's weight beside a whole one (`grade_weight`).
const GRADE_C_WEIGHT: f64 = 0.5;

/// |ln(predicted / measured)| of one case whose prediction is `p`, 0 inside its range.
fn log_error(case: &Loaded, p: Option<&perf::Prediction>) -> f64 {
    let Some(p) = p else {
        return 10.0;
    };
    let predicted = crate::score::predicted_value(&case.case, p);
    let e = error_pct(predicted, case.case.measured.bounds());
    (1.0 + e / 100.0).max(1e-9).ln().abs()
}

/// The counted cases (calibrations and latencies aside) grouped by what they predict: cases of one system
/// and workload (a run's bandwidth and its IOPS) share one prediction per evaluation. Each
/// group keeps the index of its source.
struct Groups<'a> {
    groups: Vec<(usize, Vec<&'a Loaded>)>,
    /// Counted cases per source.
    counts: Vec<usize>,
    /// Each source's weight by its grade.
    weights: Vec<f64>,
}

impl<'a> Groups<'a> {
    fn of(sources: &[&'a Source]) -> Groups<'a> {
        let mut groups: Vec<(usize, Vec<&'a Loaded>)> = Vec::new();
        let mut counts = vec![0; sources.len()];
        for (i, s) in sources.iter().enumerate() {
            for c in s.cases.iter().filter(|c| c.case.in_fit()) {
                counts[i] += 1;
                let same = |g: &&mut (usize, Vec<&Loaded>)| {
                    g.0 == i && g.1[0].workload == c.workload && g.1[0].system == c.system
                };
                match groups.iter_mut().find(same) {
                    Some(g) => g.1.push(c),
                    None => groups.push((i, vec![c])),
                }
            }
        }
        let weights = sources.iter().map(|s| grade_weight(s.grade)).collect();
        Groups {
            groups,
            counts,
            weights,
        }
    }

    /// The mean over the sources of each one's mean |log error| under `constants`, weighed
    /// by grade alone: a source weighs the same however many figures it published (one
    /// lab's long table does not outvote the others' machines).
    fn mean_log_error(&self, constants: &Constants) -> f64 {
        let mut sums = vec![0.0; self.counts.len()];
        for (i, g) in &self.groups {
            let p = perf::predict_with(&g[0].system, &g[0].workload, constants).ok();
            sums[*i] += g.iter().map(|c| log_error(c, p.as_ref())).sum::<f64>();
        }
        let counted: Vec<(f64, f64)> = sums
            .iter()
            .zip(&self.counts)
            .zip(&self.weights)
            .filter(|((_, &n), _)| n > 0)
            .map(|((s, &n), &w)| (w * s / n as f64, w))
            .collect();
        let total: f64 = counted.iter().map(|c| c.1).sum();
        counted.iter().map(|c| c.0).sum::<f64>() / total.max(1e-9)
    }
}

/// A source's weight in the fit by its grade: a grade C source states little beyond its
/// layout and method, so its cases carry the error of every default taken for what it left
/// out, and say less about the constants than a source that states its machine; it weighs
/// half. Seeds (ungraded), A and B weigh whole.
fn grade_weight(grade: Option<Grade>) -> f64 {
    match grade {
        Some(Grade::C) => GRADE_C_WEIGHT,
        _ => 1.0,
    }
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
fn objective(cases: &Groups, constants: &Constants) -> f64 {
    cases.mean_log_error(constants)
        + PARAMS
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

/// The constants that minimise the objective over `sources`' cases, from the priors.
pub fn fit(sources: &[&Source]) -> Constants {
    let cases = &Groups::of(sources);
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

/// Every source of the corpus.
pub fn all_sources(corpus: &Corpus) -> Vec<&Source> {
    corpus.sources.iter().collect()
}
