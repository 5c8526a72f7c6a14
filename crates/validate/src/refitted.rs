//! What `zpoolsim validate --refit` reports: each constant refitted to the corpus beside its
//! prior, bounds and committed value, and the constants file the refit makes (perf's
//! crates/perf/data/constants.toml, which `--refit -o FILE` writes).

use crate::corpus::Corpus;
use crate::refit::{all_sources, fit};
use perf::{Constants, PARAMS};
use serde::Serialize;

/// One constant refitted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refitted {
    pub name: String,
    /// What it stands for.
    pub about: String,
    pub prior: f64,
    /// Its bounds.
    pub min: f64,
    pub max: f64,
    /// The value the model uses now, and the value the refit gives.
    pub committed: f64,
    pub fitted: f64,
}

/// A refit of the model's constants to a corpus.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refit {
    pub constants: Vec<Refitted>,
    /// The constants file of the fitted values, as the model reads it.
    pub file: String,
}

/// Refits the constants to every case of `corpus`.
pub fn refit(corpus: &Corpus) -> Refit {
    let fitted = fit(&all_sources(corpus));
    let committed = Constants::fitted();
    let constants = PARAMS
        .iter()
        .zip(fitted.0.iter().zip(committed.0))
        .map(|(p, (&fitted, committed))| Refitted {
            name: p.name.into(),
            about: p.about.into(),
            prior: p.prior,
            min: p.min,
            max: p.max,
            committed,
            fitted,
        })
        .collect();
    Refit {
        constants,
        file: fitted.to_toml(),
    }
}
