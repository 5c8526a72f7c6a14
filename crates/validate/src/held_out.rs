//! A held-out prediction: a case predicted with constants fitted without its source, and the
//! ways the cross-validation groups them.

use crate::case::Grade;
use crate::corpus::Source;
use crate::score::error_pct;
use perf::{Constants, ErrorClass};
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

/// The cases of `source` the fit counts (`Case::in_fit`) predicted with `constants`.
pub(crate) fn of_source(source: &Source, constants: &Constants) -> Vec<HeldOut> {
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

/// A held-out case's grade in words.
pub(crate) fn grade_words(h: &HeldOut) -> String {
    h.grade
        .map_or("ungraded".to_string(), |g| format!("grade {g:?}"))
}

/// `items` grouped by `key`, in the order the keys first appear.
pub(crate) fn by_key<T>(items: &[T], key: impl Fn(&T) -> String) -> Vec<(String, Vec<&T>)> {
    let mut out: Vec<(String, Vec<&T>)> = Vec::new();
    for item in items {
        let k = key(item);
        match out.iter_mut().find(|(name, _)| *name == k) {
            Some((_, members)) => members.push(item),
            None => out.push((k, vec![item])),
        }
    }
    out
}

/// The sources `members` come from.
pub(crate) fn sources(members: &[&HeldOut]) -> usize {
    let mut sources: Vec<&str> = members.iter().map(|h| h.source.as_str()).collect();
    sources.sort_unstable();
    sources.dedup();
    sources.len()
}
