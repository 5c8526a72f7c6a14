//! The validation corpus of zpoolsim's performance model: published measurements, each with
//! the system and workload that produced it (`corpus`, `case`), scored against the model's
//! prediction and the rule of thumb (`score`).

mod bands;
mod case;
mod corpus;
mod cross_validation;
mod held_out;
mod refit;
mod refitted;
mod score;

pub use bands::{Coverage, Held};
pub use case::{unit_scale, Case, Excluded, Grade, Measured, Metric, Percentile};
pub use corpus::{Corpus, Loaded, Source};
pub use cross_validation::{cross_validate, CrossValidation, Group};
pub use held_out::HeldOut;
pub use refit::{all_sources, fit};
pub use refitted::{refit, Refit, Refitted};
pub use score::{error_pct, median_abs, percentile_abs, CaseResult, LatencyError, Summary};

use std::fmt;

/// Why the corpus could not be read or a case predicted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValidateError {
    /// A case file is not a valid case file.
    CaseFile {
        /// The case file.
        file: String,
        /// What is wrong with it.
        message: String,
    },
    /// A case names a system or workload that cannot be read, or cannot be predicted.
    Case {
        /// The case file.
        file: String,
        /// The case's id.
        id: String,
        /// What could not be read or predicted.
        message: String,
    },
}

impl fmt::Display for ValidateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidateError::CaseFile { file, message } => write!(f, "{file}: {message}"),
            ValidateError::Case { file, id, message } => {
                write!(f, "{file} case {id}: {message}")
            }
        }
    }
}

impl std::error::Error for ValidateError {}

/// Every case of `corpus` predicted and scored, with the excluded measurements and the error
/// statistics.
pub fn validate(corpus: &Corpus) -> Result<Summary, ValidateError> {
    validate_with(corpus, &perf::Constants::fitted())
}

/// `validate` with other values of the fitted constants.
pub fn validate_with(
    corpus: &Corpus,
    constants: &perf::Constants,
) -> Result<Summary, ValidateError> {
    let mut results = Vec::new();
    let mut latency_by_source = Vec::new();
    for source in &corpus.sources {
        let first = results.len();
        // The percentiles of one run are consecutive cases of the same system and workload:
        // the simulation runs once for them (it is deterministic, with its fixed seed).
        let mut simulated: Option<(&Loaded, perf::Latency)> = None;
        for loaded in &source.cases {
            let fail = |e: perf::PerfError| ValidateError::Case {
                file: source.file.clone(),
                id: loaded.case.id.clone(),
                message: e.to_string(),
            };
            let mut p =
                perf::predict_with(&loaded.system, &loaded.workload, constants).map_err(fail)?;
            if loaded.case.metric.is_latency() {
                let same = |(prev, _): &(&Loaded, perf::Latency)| {
                    prev.system == loaded.system && prev.workload == loaded.workload
                };
                if !simulated.as_ref().is_some_and(same) {
                    let l = perf::latency(&loaded.system, &loaded.workload).map_err(fail)?;
                    simulated = Some((loaded, l));
                }
                p.latency_s = simulated.as_ref().map(|(_, l)| l.clone());
            }
            let base = perf::rule_of_thumb(&loaded.system, &loaded.workload);
            results.push(score::score(&loaded.case, &p, base));
        }
        let cases: Vec<Case> = source.cases.iter().map(|l| l.case.clone()).collect();
        latency_by_source.extend(score::latency_error(
            &source.file,
            &cases,
            &results[first..],
        ));
    }
    let excluded = corpus
        .sources
        .iter()
        .flat_map(|s| s.excluded.iter().cloned())
        .collect();
    Ok(score::summarize(results, excluded, latency_by_source))
}
