//! The error to expect of a prediction: the errors of its class (workload pattern, the pool's
//! medium, the release's era) when each source of the validation corpus is predicted by a
//! model refitted without it (`zpoolsim validate --cv`), as its median (p50) and its 90th
//! percentile (p90). The bands are what that run gives on the committed corpus, kept in the data
//! file crates/perf/data/bands.toml, which `validate --cv -o` writes; a test in crates/validate
//! checks it. A band is at least as wide as every scope around its class that three sources or
//! more measured (its pattern on its medium under any release, its pattern anywhere; every case
//! where none has); a class fewer than three sources measured says "few measurements like this
//! one": one or two machines' errors do not say what the next machine's will be.

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
    /// dd or fio reading a file front to back.
    SequentialRead,
    /// dd or fio writing a file front to back.
    SequentialWrite,
    /// Each block read and written back in place (Bonnie's rewrite).
    Rewrite,
    /// Random I/O, half or more of it reads.
    RandomRead,
    /// Random I/O, mostly writes.
    RandomWrite,
    /// Bonnie's random seeks.
    Seeks,
    /// I/O on a raw disk, bypassing ZFS.
    RawDevice,
}

/// A pattern on a medium under a release era.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ErrorClass {
    /// What the workload does.
    pub pattern: Pattern,
    /// The medium of the pool's data disks (hard disks, SATA/SAS SSDs, NVMe).
    pub medium: Medium,
    /// The release era of the host's ZFS.
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
            // A sequential mix is classed by its larger side, as a random one is.
            (_, Access::SeqMix { read_pct }) if read_pct >= 50 => Pattern::SequentialRead,
            (_, Access::SeqMix { .. }) => Pattern::SequentialWrite,
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
        write!(
            f,
            "{} on {}, {}",
            pattern_words(self.pattern),
            medium_words(self.medium),
            era_words(self.era)
        )
    }
}

/// A pattern in words.
pub fn pattern_words(pattern: Pattern) -> &'static str {
    match pattern {
        Pattern::SequentialRead => "sequential reads",
        Pattern::SequentialWrite => "sequential writes",
        Pattern::Rewrite => "rewrites",
        Pattern::RandomRead => "random reads",
        Pattern::RandomWrite => "random writes",
        Pattern::Seeks => "random seeks",
        Pattern::RawDevice => "raw-device I/O",
    }
}

/// A medium in words.
pub fn medium_words(medium: Medium) -> &'static str {
    match medium {
        Medium::Hdd => "hard disks",
        Medium::Ssd => "SATA/SAS SSDs",
        Medium::Nvme => "NVMe",
    }
}

/// An era in words.
pub fn era_words(era: Era) -> &'static str {
    match era {
        Era::Early => "releases of 2005-2010",
        Era::Middle => "releases of 2010-2016",
        Era::Modern => "releases from 2017",
    }
}

/// The cases a band pools: one class, or its pattern on a medium under any release, or its
/// pattern anywhere (`None`: any).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Scope {
    /// The pattern, always stated.
    pub pattern: Pattern,
    /// The medium; `None`: any.
    pub medium: Option<Medium>,
    /// The release era; `None`: any.
    pub era: Option<Era>,
}

impl Scope {
    /// The scope of exactly `class`.
    pub fn of(class: ErrorClass) -> Scope {
        Scope {
            pattern: class.pattern,
            medium: Some(class.medium),
            era: Some(class.era),
        }
    }

    /// The scopes around `class`, narrowest first: the class, its pattern on its medium, its
    /// pattern.
    pub fn around(class: ErrorClass) -> [Scope; 3] {
        let exact = Scope::of(class);
        [
            exact,
            Scope { era: None, ..exact },
            Scope {
                medium: None,
                era: None,
                ..exact
            },
        ]
    }

    /// Whether `class` falls in it.
    pub fn holds(&self, class: ErrorClass) -> bool {
        self.pattern == class.pattern
            && self.medium.is_none_or(|m| m == class.medium)
            && self.era.is_none_or(|e| e == class.era)
    }

    /// Whether it is one class.
    pub fn is_class(&self) -> bool {
        self.medium.is_some() && self.era.is_some()
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", pattern_words(self.pattern))?;
        if let Some(m) = self.medium {
            write!(f, " on {}", medium_words(m))?;
        }
        match self.era {
            Some(e) => write!(f, ", {}", era_words(e)),
            None => write!(f, ", any release"),
        }
    }
}

/// The cross-validated errors of the cases of one scope.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Band {
    /// The cases it pools.
    pub scope: Scope,
    /// Median |error| of the scope's cases, each predicted with constants fitted without
    /// its source, percent.
    pub median_pct: f64,
    /// 90th percentile of the same, percent.
    pub p90_pct: f64,
    /// Cases behind it.
    pub cases: u32,
    /// Sources those cases come from.
    pub sources: u32,
}

/// The committed bands (`Bands::committed`).
const COMMITTED_FILE: &str = include_str!("../data/bands.toml");

/// The bands file's first lines.
const FILE_HEADER: &str = "\
# The error bands of the performance model's predictions: what `zpoolsim validate --cv` gives
# on the committed validation corpus (percent; crates/perf/src/expected_error.rs says how they are
# used). A band without `era` pools its pattern on its medium under every release; without
# `medium` too, its pattern everywhere. Rewritten by
#   zpoolsim validate --cv -o crates/perf/data/bands.toml --force
# and checked by crates/validate/tests/committed.rs; review the diff.
";

/// The largest |error| a band may state, percent: a p90 past it says the model has no answer.
const MAX_PCT: f64 = 10_000.0;

/// Sources a scope's band must rest on to widen the bands within it; a class with fewer says
/// so (issue 29: one or two machines' errors do not say what the next machine's will be).
pub const FEW_SOURCES: u32 = 3;

/// The figures over every cross-validated case.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overall {
    /// Median |error| over every case, percent.
    pub median_pct: f64,
    /// 90th percentile |error| over every case, percent.
    pub p90_pct: f64,
    /// The cases behind them.
    pub cases: u32,
}

/// The bands of every scope the corpus measured, and the overall figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Bands {
    /// Median and 90th percentile over every case.
    pub overall: Overall,
    /// In the order `validate --cv` meets the scopes.
    pub bands: Vec<Band>,
}

/// The error to expect of one prediction: the band's figures and whether few measurements
/// stand behind them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expected {
    /// Median |error| to expect, percent.
    pub median_pct: f64,
    /// 90th percentile |error| to expect, percent.
    pub p90_pct: f64,
    /// The class has fewer than `FEW_SOURCES` sources: its band was widened.
    pub few: bool,
    /// Cases of the class itself.
    pub cases: u32,
    /// Sources of the class itself.
    pub sources: u32,
}

/// A band as the file writes it: its scope's words, then its figures.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    pattern: Pattern,
    medium: Option<Medium>,
    era: Option<Era>,
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

    /// Reads a bands file: known scopes, each once, with 0 <= p50 <= p90 <= 10,000% and
    /// 1 <= sources <= cases, whose classes' cases add up to the overall figures'.
    pub fn from_toml(text: &str) -> Result<Bands, String> {
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        check_figures("overall", file.overall.median_pct, file.overall.p90_pct)?;
        let mut bands: Vec<Band> = Vec::new();
        for r in file.band {
            let scope = Scope {
                pattern: r.pattern,
                medium: r.medium,
                era: r.era,
            };
            let name = scope.to_string();
            check_figures(&name, r.median_pct, r.p90_pct)?;
            if r.sources == 0 || r.sources > r.cases {
                return Err(format!(
                    "{name}: {} sources of {} cases: expected 1..=cases",
                    r.sources, r.cases
                ));
            }
            if bands.iter().any(|b| b.scope == scope) || (r.medium.is_none() && r.era.is_some()) {
                return Err(format!("{name}: two bands, or an era without a medium"));
            }
            bands.push(Band {
                scope,
                median_pct: r.median_pct,
                p90_pct: r.p90_pct,
                cases: r.cases,
                sources: r.sources,
            });
        }
        let cases: u32 = bands
            .iter()
            .filter(|b| b.scope.is_class())
            .map(|b| b.cases)
            .sum();
        if cases != file.overall.cases {
            return Err(format!(
                "the bands hold {cases} cases, the overall figures {}",
                file.overall.cases
            ));
        }
        Ok(Bands {
            overall: file.overall,
            bands,
        })
    }

    /// The bands file of these figures, as `from_toml` reads it: a header, the overall
    /// figures, then one `[[band]]` table per scope, every percentage to 0.1 (as the bands
    /// are stated).
    pub fn to_toml(&self) -> String {
        let o = &self.overall;
        let mut out = format!(
            "{FILE_HEADER}\n[overall]\nmedian_pct = {:.1}\np90_pct = {:.1}\ncases = {}\n",
            o.median_pct, o.p90_pct, o.cases
        );
        for b in &self.bands {
            out += &format!("\n[[band]]\npattern = {}\n", word(b.scope.pattern));
            if let Some(m) = b.scope.medium {
                out += &format!("medium = {}\n", word(m));
            }
            if let Some(e) = b.scope.era {
                out += &format!("era = {}\n", word(e));
            }
            out += &format!(
                "median_pct = {:.1}\np90_pct = {:.1}\ncases = {}\nsources = {}\n",
                b.median_pct, b.p90_pct, b.cases, b.sources
            );
        }
        out
    }

    /// The expected |error| of a prediction of `class`: the widest figures of the scopes
    /// around it that `FEW_SOURCES` sources or more measured (the class itself, its pattern on
    /// its medium under any release, its pattern anywhere), or of every case where none has;
    /// never narrower than the class's own. A class's figures from a handful of machines can be
    /// narrow by luck; those of the workloads around it rest on more.
    pub fn expected(&self, class: ErrorClass) -> Expected {
        let own = self.band(Scope::of(class));
        let (cases, sources) = own.map_or((0, 0), |b| (b.cases, b.sources));
        let around: Vec<&Band> = Scope::around(class)
            .iter()
            .filter_map(|s| self.band(*s))
            .filter(|b| b.sources >= FEW_SOURCES)
            .collect();
        let o = &self.overall;
        let wide = match around.is_empty() {
            true => (o.median_pct, o.p90_pct),
            false => around.iter().fold((0.0f64, 0.0f64), |(m, p), b| {
                (m.max(b.median_pct), p.max(b.p90_pct))
            }),
        };
        let (m, p) = own.map_or((0.0, 0.0), |b| (b.median_pct, b.p90_pct));
        Expected {
            median_pct: m.max(wide.0),
            p90_pct: p.max(wide.1),
            few: sources < FEW_SOURCES,
            cases,
            sources,
        }
    }

    fn band(&self, scope: Scope) -> Option<&Band> {
        self.bands.iter().find(|b| b.scope == scope)
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

/// A scope word as the file writes it (its serde name, quoted).
fn word<T: Serialize>(value: T) -> String {
    toml::Value::try_from(value)
        .expect("a unit variant serializes to its name")
        .to_string()
}

/// The expected |error| of a prediction of `class`, by the committed bands
/// (`Bands::expected`).
pub(crate) fn expected_error(class: ErrorClass) -> Expected {
    Bands::committed().expected(class)
}

/// The class in words, with what its band rests on and its p90.
pub(crate) fn describe(class: ErrorClass) -> String {
    let e = expected_error(class);
    let p90 = e.p90_pct;
    match (e.sources, e.few) {
        (0, _) => format!(
            "{class} (few measurements like this one: none in the corpus; the errors of the kinds around it, 9 in 10 within +/-{p90:.0}%)"
        ),
        (_, true) => format!(
            "{class} (few measurements like this one: {} from {} source(s), so at least the errors of the kinds around it that {FEW_SOURCES} or more sources measured; 9 in 10 within +/-{p90:.0}%)",
            e.cases, e.sources
        ),
        _ => format!(
            "{class} ({} published measurements from {} sources, cross-validated, and at least the errors of the kinds around it; 9 in 10 within +/-{p90:.0}%)",
            e.cases, e.sources
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
        assert!(bands.bands.iter().any(|b| b.scope.is_class()));
    }

    #[test]
    fn a_bands_file_holds_known_scopes_with_figures_in_range() {
        let file = Bands::committed().to_toml();
        let unknown = file.replacen("\"hdd\"", "\"tape\"", 1);
        assert!(Bands::from_toml(&unknown)
            .unwrap_err()
            .contains("unknown variant `tape`"));
        let cases = Bands::committed().overall.cases;
        let fewer = file.replacen(&format!("cases = {cases}"), "cases = 1", 1);
        assert_eq!(
            Bands::from_toml(&fewer),
            Err(format!(
                "the bands hold {cases} cases, the overall figures 1"
            ))
        );
        let extra = file.replacen("sources = ", "weight = 1\nsources = ", 1);
        assert!(Bands::from_toml(&extra)
            .unwrap_err()
            .contains("unknown field `weight`"));
    }

    fn band(scope: Scope, median_pct: f64, p90_pct: f64, cases: u32, sources: u32) -> Band {
        Band {
            scope,
            median_pct,
            p90_pct,
            cases,
            sources,
        }
    }

    #[test]
    fn a_band_is_as_wide_as_the_well_measured_scopes_around_it() {
        let class = ErrorClass {
            pattern: Pattern::RandomRead,
            medium: Medium::Nvme,
            era: Era::Modern,
        };
        let [exact, medium, pattern] = Scope::around(class);
        let bands = Bands {
            overall: Overall {
                median_pct: 20.0,
                p90_pct: 60.0,
                cases: 30,
            },
            bands: vec![
                band(exact, 5.0, 70.0, 10, 2),
                band(medium, 30.0, 50.0, 20, 2),
                band(pattern, 25.0, 80.0, 30, 4),
            ],
        };
        // Two sources: at least the pattern's figures (the medium's has two sources too).
        let e = bands.expected(class);
        assert_eq!((e.median_pct, e.p90_pct, e.few), (25.0, 80.0, true));
        // Three sources: no longer few, and still at least its pattern's figures; its own
        // where they are the wider.
        let mut enough = bands.clone();
        enough.bands[0].sources = 3;
        let e = enough.expected(class);
        assert_eq!((e.median_pct, e.p90_pct, e.few), (25.0, 80.0, false));
        enough.bands[0].p90_pct = 95.0;
        assert_eq!(enough.expected(class).p90_pct, 95.0);
        // A class nobody measured on another medium: the pattern's, and it says so.
        let sata = ErrorClass {
            medium: Medium::Ssd,
            ..class
        };
        let e = bands.expected(sata);
        assert_eq!((e.median_pct, e.p90_pct, e.sources), (25.0, 80.0, 0));
        // A pattern nobody measured: every case's figures.
        let raw = ErrorClass {
            pattern: Pattern::RawDevice,
            ..class
        };
        assert_eq!(bands.expected(raw).p90_pct, 60.0);
    }
}
