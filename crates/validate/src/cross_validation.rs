//! Leave-one-source-out cross-validation: each source predicted with the constants the others
//! give, its errors by source, medium, era, workload pattern and grade; the error bands they
//! make; and how often those bands hold for a source they were not made from.

use crate::case::Grade;
use crate::corpus::{Corpus, Source};
use crate::refit::fit;
use crate::score::{error_pct, median_abs, percentile_abs};
use perf::{Band, Bands, Constants, ErrorClass, Overall, Scope};
use serde::Serialize;

/// One held-out prediction.
#[derive(Debug, Clone, Serialize)]
pub struct HeldOut {
    /// The case's id.
    pub id: String,
    /// The case file it comes from.
    pub source: String,
    /// Its source's grade.
    pub grade: Option<Grade>,
    /// The error class its band is made for.
    pub class: ErrorClass,
    /// Signed error of the held-out prediction, percent.
    pub error_pct: f64,
}

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

/// How often the bands hold out of sample: the share of held-out cases within the median
/// band and within the p90 band, each band made without the case's own source.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Coverage {
    /// Share of held-out cases within the median band, percent.
    pub p50_pct: f64,
    /// Share within the p90 band, percent.
    pub p90_pct: f64,
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
            overall: Overall {
                median_pct: self.median_abs_error_pct,
                p90_pct: self.p90_abs_error_pct,
                cases: self.cases.len() as u32,
            },
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
    held_out(source, &fit(&others))
}

/// The figures of the held-out `cases`.
fn summarize(cases: Vec<HeldOut>) -> CrossValidation {
    let all: Vec<&HeldOut> = cases.iter().collect();
    let errors: Vec<f64> = cases.iter().map(|h| h.error_pct).collect();
    let grade = |h: &HeldOut| {
        h.grade
            .map_or("ungraded".to_string(), |g| format!("grade {g:?}"))
    };
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
        by_grade: groups(&all, grade),
        without_grade_c: group("every source but grade C".into(), &not_c),
        by_class: bands_of(&all),
        band_coverage: coverage(&all),
        cases,
    }
}

/// The cases grouped by `key`, in the order the keys first appear.
fn groups(cases: &[&HeldOut], key: impl Fn(&HeldOut) -> String) -> Vec<Group> {
    let mut names: Vec<String> = Vec::new();
    for h in cases {
        let k = key(h);
        if !names.contains(&k) {
            names.push(k);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let members: Vec<&HeldOut> = cases.iter().copied().filter(|h| key(h) == name).collect();
            group(name, &members)
        })
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
        sources: count_sources(members),
    }
}

fn count_sources(members: &[&HeldOut]) -> u32 {
    let mut sources: Vec<&str> = members.iter().map(|h| h.source.as_str()).collect();
    sources.sort_unstable();
    sources.dedup();
    sources.len() as u32
}

/// The bands of every scope the cases meet (`Scope::around` each case's class), in the order
/// they meet them.
fn bands_of(cases: &[&HeldOut]) -> Vec<Band> {
    let mut out: Vec<Band> = Vec::new();
    for h in cases {
        for scope in Scope::around(h.class) {
            if out.iter().any(|b| b.scope == scope) {
                continue;
            }
            let members: Vec<&HeldOut> = cases
                .iter()
                .copied()
                .filter(|o| scope.holds(o.class))
                .collect();
            let g = group(String::new(), &members);
            out.push(Band {
                scope,
                median_pct: g.median_pct,
                p90_pct: g.p90_pct,
                cases: g.cases,
                sources: g.sources,
            });
        }
    }
    out
}

/// The share of `cases` within their bands, each band made from the other sources' cases
/// alone (`Bands::expected`, as a prediction states it): out of sample.
fn coverage(cases: &[&HeldOut]) -> Coverage {
    let (mut p50, mut p90) = (0usize, 0usize);
    let mut sources: Vec<&str> = cases.iter().map(|h| h.source.as_str()).collect();
    sources.sort_unstable();
    sources.dedup();
    for source in sources {
        let others: Vec<&HeldOut> = cases
            .iter()
            .copied()
            .filter(|h| h.source != source)
            .collect();
        let errors: Vec<f64> = others.iter().map(|h| h.error_pct).collect();
        let bands = Bands {
            overall: Overall {
                median_pct: median_abs(&errors),
                p90_pct: percentile_abs(&errors, 0.9),
                cases: errors.len() as u32,
            },
            bands: bands_of(&others),
        };
        for h in cases.iter().filter(|h| h.source == source) {
            let e = bands.expected(h.class);
            p50 += usize::from(h.error_pct.abs() <= e.median_pct);
            p90 += usize::from(h.error_pct.abs() <= e.p90_pct);
        }
    }
    let share = |n: usize| 100.0 * n as f64 / cases.len().max(1) as f64;
    Coverage {
        p50_pct: share(p50),
        p90_pct: share(p90),
    }
}

/// The cases of `source` the fit counts (`Case::in_fit`) predicted with `constants`.
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
                grade: source.grade,
                class: ErrorClass::of(&c.system, &c.workload),
                error_pct: error_pct(predicted, c.case.measured.bounds()),
            })
        })
        .collect()
}
