//! Leave-one-source-out cross-validation: each source predicted with the constants the others
//! give, its errors by source, medium, era, workload pattern and grade; the error bands they
//! make; and how often those bands hold for a source they were not made from.

use crate::bands::{bands_of, coverage, overall, Coverage};
use crate::case::Grade;
use crate::corpus::{Corpus, Source};
use crate::held_out::{by_key, grade_words, of_source, sources, HeldOut};
use crate::refit::fit;
use crate::score::{median_abs, percentile_abs};
use perf::{Band, Bands};
use serde::Serialize;

/// The held-out errors of a group of cases.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// What the group is (a source, a medium, an era).
    pub name: String,
    /// Median |error| of its cases, percent.
    pub median_pct: f64,
    /// 90th percentile of |error|, percent.
    pub p90_pct: f64,
    /// Cases in the group.
    pub cases: u32,
    /// Sources those cases come from.
    pub sources: u32,
}

/// Leave-one-source-out cross-validation: for each source, the constants refitted on the
/// others, and its cases predicted with them.
#[derive(Debug, Clone, Serialize)]
pub struct CrossValidation {
    /// Every held-out case.
    pub cases: Vec<HeldOut>,
    /// Median |error| over every held-out case (calibrations aside).
    pub median_abs_error_pct: f64,
    /// 90th percentile of the same.
    pub p90_abs_error_pct: f64,
    /// Per source, in file order.
    pub by_source: Vec<Group>,
    /// Per medium of the pool's data disks.
    pub by_medium: Vec<Group>,
    /// Per era of the ZFS release.
    pub by_era: Vec<Group>,
    /// Per workload pattern.
    pub by_pattern: Vec<Group>,
    /// Per grade of the source.
    pub by_grade: Vec<Group>,
    /// Every case but those of grade C sources.
    pub without_grade_c: Group,
    /// Per scope (class, pattern on a medium, pattern): the bands.
    pub by_class: Vec<Band>,
    /// How often those bands hold out of sample.
    pub band_coverage: Coverage,
}

impl CrossValidation {
    /// The error bands these figures make, as perf's bands file
    /// (crates/perf/data/bands.toml, which `--cv -o FILE` writes) holds them.
    pub fn bands(&self) -> Bands {
        Bands {
            overall: overall(&self.cases.iter().collect::<Vec<_>>()),
            bands: self.by_class.clone(),
        }
    }
}

/// Cross-validates the corpus: the sources' refits run on the machine's cores at once, each
/// on its own source, so the result does not depend on how many there are.
pub fn cross_validate(corpus: &Corpus) -> CrossValidation {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sources: Vec<&Source> = corpus.sources.iter().collect();
    let mut held: Vec<Vec<HeldOut>> = Vec::with_capacity(sources.len());
    for chunk in sources.chunks(workers.max(1)) {
        let done: Vec<Vec<HeldOut>> = std::thread::scope(|s| {
            let running: Vec<_> = chunk
                .iter()
                .map(|source| s.spawn(|| leave_out(corpus, source)))
                .collect();
            running
                .into_iter()
                .map(|h| h.join().expect("a refit does not panic"))
                .collect()
        });
        held.extend(done);
    }
    summarize(held.into_iter().flatten().collect())
}

/// `source`'s cases predicted with the constants every other source gives.
fn leave_out(corpus: &Corpus, source: &Source) -> Vec<HeldOut> {
    let others: Vec<&Source> = corpus
        .sources
        .iter()
        .filter(|s| s.file != source.file)
        .collect();
    of_source(source, &fit(&others))
}

/// The figures of the held-out `cases`.
fn summarize(cases: Vec<HeldOut>) -> CrossValidation {
    let all: Vec<&HeldOut> = cases.iter().collect();
    let errors: Vec<f64> = cases.iter().map(|h| h.error_pct).collect();
    let not_c: Vec<&HeldOut> = all
        .iter()
        .copied()
        .filter(|h| h.grade != Some(Grade::C))
        .collect();
    CrossValidation {
        median_abs_error_pct: median_abs(&errors),
        p90_abs_error_pct: percentile_abs(&errors, 0.9),
        by_source: groups(&all, |h| h.source.clone()),
        by_medium: groups(&all, |h| perf::medium_words(h.class.medium).to_string()),
        by_era: groups(&all, |h| perf::era_words(h.class.era).to_string()),
        by_pattern: groups(&all, |h| perf::pattern_words(h.class.pattern).to_string()),
        by_grade: groups(&all, grade_words),
        without_grade_c: group("every source but grade C".into(), &not_c),
        by_class: bands_of(&all),
        band_coverage: coverage(&all),
        cases,
    }
}

/// The held-out errors of `cases` grouped by `key`.
fn groups(cases: &[&HeldOut], key: impl Fn(&HeldOut) -> String) -> Vec<Group> {
    by_key(cases, |h| key(h))
        .into_iter()
        .map(|(name, members)| group(name, &members.into_iter().copied().collect::<Vec<_>>()))
        .collect()
}

/// The figures of `members` under `name`.
fn group(name: String, members: &[&HeldOut]) -> Group {
    let errors: Vec<f64> = members.iter().map(|h| h.error_pct).collect();
    Group {
        name,
        median_pct: median_abs(&errors),
        p90_pct: percentile_abs(&errors, 0.9),
        cases: errors.len() as u32,
        sources: sources(members) as u32,
    }
}
