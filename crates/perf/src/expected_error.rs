//! The error to expect of a prediction: the errors of its class (workload pattern, the pool's
//! medium, the release's era) when each source of the validation corpus is predicted by a
//! model refitted without it (`zpoolsim validate --cv`), as its median (p50) and its 90th
//! percentile (p90). The bands are what that run gives on the committed corpus, kept in the data
//! file crates/perf/data/bands.toml, which `validate --cv -o` writes; a test in crates/validate
//! checks it. A class only one source measured takes at least the figures over all classes (one
//! machine's agreement says little of the next), and a class the corpus holds no measurement of
//! the largest p50 and p90 of any class; each says so.

use crate::release::Era;
use model::hardware::Medium;
use model::workload::{Access, Target, Workload};
use model::System;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// What a prediction measures, for its expected error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pattern {
    SequentialRead,
    SequentialWrite,
    Rewrite,
    RandomRead,
    RandomWrite,
    Seeks,
    RawDevice,
}

/// A pattern on a medium under a release era.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ErrorClass {
    pub pattern: Pattern,
    /// The medium of the pool's data disks (hard disks, SATA/SAS SSDs, NVMe).
    pub medium: Medium,
    pub era: Era,
}

impl ErrorClass {
    /// The class of `w` on `system`'s pool.
    pub fn of(system: &System, w: &Workload) -> ErrorClass {
        let pattern = match (w.target, w.access) {
            (Target::RawDisk { .. }, _) => Pattern::RawDevice,
            (_, Access::SeqRead) => Pattern::SequentialRead,
            (_, Access::SeqWrite) => Pattern::SequentialWrite,
            (_, Access::Rewrite) => Pattern::Rewrite,
            (_, Access::Random { read_pct }) if read_pct >= 50 => Pattern::RandomRead,
            (_, Access::Random { .. }) => Pattern::RandomWrite,
            (_, Access::Seeks { .. }) => Pattern::Seeks,
        };
        ErrorClass {
            pattern,
            medium: system.disks.first().map_or(Medium::Hdd, |d| d.model.medium),
            era: Era::of(system.host.zfs),
        }
    }
}

impl std::fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pattern = match self.pattern {
            Pattern::SequentialRead => "sequential reads",
            Pattern::SequentialWrite => "sequential writes",
            Pattern::Rewrite => "rewrites",
            Pattern::RandomRead => "random reads",
            Pattern::RandomWrite => "random writes",
            Pattern::Seeks => "random seeks",
            Pattern::RawDevice => "raw-device I/O",
        };
        let medium = match self.medium {
            Medium::Hdd => "hard disks",
            Medium::Ssd => "SATA/SAS SSDs",
            Medium::Nvme => "NVMe",
        };
        let era = match self.era {
            Era::Early => "releases of 2005-2010",
            Era::Middle => "releases of 2010-2016",
            Era::Modern => "releases from 2017",
        };
        write!(f, "{pattern} on {medium}, {era}")
    }
}

/// The cross-validated errors of one class.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Band {
    pub class: ErrorClass,
    /// Median |error| of the class's cases, each predicted with constants fitted without
    /// its source, percent.
    pub median_pct: f64,
    /// 90th percentile of the same, percent.
    pub p90_pct: f64,
    /// Cases and sources behind it.
    pub cases: u32,
    pub sources: u32,
}

/// The committed bands (`Bands::committed`).
const COMMITTED_FILE: &str = include_str!("../data/bands.toml");

/// The bands file's first lines.
const FILE_HEADER: &str = "\
# The error bands of the performance model's predictions: what `zpoolsim validate --cv` gives
# on the committed validation corpus (percent; crates/perf/src/expected_error.rs says how they are used).
# Rewritten by
#   zpoolsim validate --cv -o crates/perf/data/bands.toml --force
# and checked by crates/validate/tests/committed.rs; review the diff.
";

/// The largest |error| a band may state, percent: a p90 past it says the model has no answer.
const MAX_PCT: f64 = 1000.0;

/// The figures over every cross-validated case.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overall {
    /// Median and 90th percentile |error|, percent, and the cases behind them.
    pub median_pct: f64,
    pub p90_pct: f64,
    pub cases: u32,
}

/// The bands of every class the corpus measured, and the overall figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Bands {
    pub overall: Overall,
    /// In the order `validate --cv` meets the classes.
    pub classes: Vec<Band>,
}

/// A band as the file writes it: its class's three words, then its figures.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    pattern: Pattern,
    medium: Medium,
    era: Era,
    median_pct: f64,
    p90_pct: f64,
    cases: u32,
    sources: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    overall: Overall,
    band: Vec<Row>,
}

impl Bands {
    /// What `zpoolsim validate --cv` gives on the committed corpus: the bands file
    /// crates/perf/data/bands.toml, read once.
    pub fn committed() -> &'static Bands {
        static COMMITTED: OnceLock<Bands> = OnceLock::new();
        COMMITTED.get_or_init(|| {
            Bands::from_toml(COMMITTED_FILE)
                .expect("crates/perf/data/bands.toml is a valid bands file (a test reads it)")
        })
    }

    /// Reads a bands file: known classes, each once, with 0 <= p50 <= p90 <= 1000% and
    /// 1 <= sources <= cases, whose cases add up to the overall figures'.
    pub fn from_toml(text: &str) -> Result<Bands, String> {
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        check_figures("overall", file.overall.median_pct, file.overall.p90_pct)?;
        let mut classes: Vec<Band> = Vec::new();
        for r in file.band {
            let class = ErrorClass {
                pattern: r.pattern,
                medium: r.medium,
                era: r.era,
            };
            check_figures(&class.to_string(), r.median_pct, r.p90_pct)?;
            if r.sources == 0 || r.sources > r.cases {
                return Err(format!(
                    "{class}: {} sources of {} cases: expected 1..=cases",
                    r.sources, r.cases
                ));
            }
            if classes.iter().any(|b| b.class == class) {
                return Err(format!("{class}: two bands"));
            }
            classes.push(Band {
                class,
                median_pct: r.median_pct,
                p90_pct: r.p90_pct,
                cases: r.cases,
                sources: r.sources,
            });
        }
        let cases: u32 = classes.iter().map(|b| b.cases).sum();
        if cases != file.overall.cases {
            return Err(format!(
                "the bands hold {cases} cases, the overall figures {}",
                file.overall.cases
            ));
        }
        Ok(Bands {
            overall: file.overall,
            classes,
        })
    }

    /// The bands file of these figures, as `from_toml` reads it: a header, the overall
    /// figures, then one `[[band]]` table per class, every percentage to 0.1 (as the bands are
    /// stated).
    pub fn to_toml(&self) -> String {
        let o = &self.overall;
        let mut out = format!(
            "{FILE_HEADER}\n[overall]\nmedian_pct = {:.1}\np90_pct = {:.1}\ncases = {}\n",
            o.median_pct, o.p90_pct, o.cases
        );
        for b in &self.classes {
            out += &format!(
                "\n[[band]]\npattern = {}\nmedium = {}\nera = {}\n\
                 median_pct = {:.1}\np90_pct = {:.1}\ncases = {}\nsources = {}\n",
                word(b.class.pattern),
                word(b.class.medium),
                word(b.class.era),
                b.median_pct,
                b.p90_pct,
                b.cases,
                b.sources
            );
        }
        out
    }

    /// The expected |error| of a prediction of `class`, percent, as (p50, p90): its class's
    /// cross-validated figures; where one source alone measured the class, at least the
    /// figures over all classes (one machine's agreement says little of the next); where no
    /// source measured it, the largest of any class (nothing vouches for it).
    fn expected_error(&self, class: ErrorClass) -> (f64, f64) {
        let o = &self.overall;
        match self.band(class) {
            Some(b) if b.sources >= 2 => (b.median_pct, b.p90_pct),
            Some(b) => (b.median_pct.max(o.median_pct), b.p90_pct.max(o.p90_pct)),
            None => self.unmeasured(),
        }
    }

    /// The largest class figures, or the overall ones where there are no classes.
    fn unmeasured(&self) -> (f64, f64) {
        let o = &self.overall;
        self.classes
            .iter()
            .fold((o.median_pct, o.p90_pct), |(m, p), b| {
                (m.max(b.median_pct), p.max(b.p90_pct))
            })
    }

    fn band(&self, class: ErrorClass) -> Option<&Band> {
        self.classes.iter().find(|b| b.class == class)
    }
}

/// A percentile pair within 0 <= p50 <= p90 <= `MAX_PCT`.
fn check_figures(what: &str, median: f64, p90: f64) -> Result<(), String> {
    if (0.0..=p90).contains(&median) && p90 <= MAX_PCT {
        Ok(())
    } else {
        Err(format!(
            "{what}: median {median}%, p90 {p90}%: expected 0 <= median <= p90 <= {MAX_PCT}"
        ))
    }
}

/// A class word as the file writes it (its serde name, quoted).
fn word<T: Serialize>(value: T) -> String {
    toml::Value::try_from(value)
        .expect("a unit variant serializes to its name")
        .to_string()
}

/// The expected |error| of a prediction of `class`, percent, as (p50, p90), by the committed
/// bands (`Bands::expected_error`).
pub fn expected_error(class: ErrorClass) -> (f64, f64) {
    Bands::committed().expected_error(class)
}

/// The class in words, with what its band rests on and its p90.
pub fn describe(class: ErrorClass) -> String {
    let bands = Bands::committed();
    let (_, p90) = bands.expected_error(class);
    match bands.band(class) {
        Some(b) if b.sources >= 2 => format!(
            "{class} ({} published measurements from {} sources, cross-validated; 9 in 10 within +/-{p90:.0}%)",
            b.cases, b.sources
        ),
        Some(b) => format!(
            "{class} ({} published measurements, all from one source: at least the figures over all {} measurements; 9 in 10 within +/-{p90:.0}%)",
            b.cases, bands.overall.cases
        ),
        None => format!(
            "{class} (no published measurement of this kind in the corpus: the largest errors of any kind measured, 9 in 10 within +/-{p90:.0}%)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed file reads, and writing its bands gives it back byte for byte: a `--cv`
    /// that finds the same figures leaves the file unchanged.
    #[test]
    fn the_bands_file_reads_and_writes_back() {
        let bands = Bands::committed();
        assert_eq!(bands.to_toml(), COMMITTED_FILE);
        assert_eq!(bands.classes.len(), 14);
        let first = ErrorClass {
            pattern: Pattern::SequentialWrite,
            medium: Medium::Hdd,
            era: Era::Early,
        };
        assert_eq!(expected_error(first), (4.7, 14.0));
    }

    #[test]
    fn a_bands_file_holds_known_classes_with_figures_in_range() {
        let file = Bands::committed().to_toml();
        let unknown = file.replacen("\"hdd\"", "\"tape\"", 1);
        assert!(Bands::from_toml(&unknown)
            .unwrap_err()
            .contains("unknown variant `tape`"));
        let inverted = file.replacen("p90_pct = 14.0", "p90_pct = 4.0", 1);
        assert!(Bands::from_toml(&inverted)
            .unwrap_err()
            .contains("expected 0 <= median <= p90 <= 1000"));
        let sources = file.replacen("sources = 3", "sources = 7", 1);
        assert!(Bands::from_toml(&sources)
            .unwrap_err()
            .contains("7 sources of 6 cases"));
        let cases = file.replacen("cases = 217", "cases = 216", 1);
        assert_eq!(
            Bands::from_toml(&cases),
            Err("the bands hold 217 cases, the overall figures 216".into())
        );
        let extra = file.replacen("sources = 3", "sources = 3\nweight = 1", 1);
        assert!(Bands::from_toml(&extra)
            .unwrap_err()
            .contains("unknown field `weight`"));
    }

    #[test]
    fn a_band_rests_on_what_measured_it() {
        let bands = Bands::committed();
        let overall = bands.overall;
        // A class two or more sources measured: its own figures.
        let shared = bands.classes.iter().find(|b| b.sources >= 2).unwrap();
        assert_eq!(
            expected_error(shared.class),
            (shared.median_pct, shared.p90_pct)
        );
        // A class one source measured: at least the overall figures.
        let single = bands.classes.iter().find(|b| b.sources == 1).unwrap();
        let (m, p) = expected_error(single.class);
        assert!(m >= overall.median_pct && m >= single.median_pct);
        assert!(p >= overall.p90_pct && p >= single.p90_pct);
        // Something no source measured (random reads on NVMe under a 2008 release): the
        // widest figures of any class, and it says so.
        let never = ErrorClass {
            pattern: Pattern::RandomRead,
            medium: Medium::Nvme,
            era: Era::Early,
        };
        assert!(bands.band(never).is_none());
        let (m, p) = expected_error(never);
        for b in &bands.classes {
            assert!(m >= b.median_pct && p >= b.p90_pct);
        }
        assert!(p >= m);
        assert!(describe(never).contains("no published measurement"));
    }
}
