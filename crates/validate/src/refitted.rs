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
    /// The constant's name in the constants file.
    pub name: String,
    /// What it stands for.
    pub about: String,
    /// The value the fit starts from and is drawn toward.
    pub prior: f64,
    /// The lowest value the fit may give.
    pub min: f64,
    /// The highest value the fit may give.
    pub max: f64,
    /// The value the model uses now.
    pub committed: f64,
    /// The value the refit gives.
    pub fitted: f64,
}

/// A refit of the model's constants to a corpus.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refit {
    /// Each constant, its bounds and its values.
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
