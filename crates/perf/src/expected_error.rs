//! The error to expect of a prediction: the errors of its class (workload pattern, the pool's
//! medium, the release's era) when each source of the validation corpus is predicted by a
//! model refitted without it (`zpoolsim validate --cv`), as signed ranges: the central half
//! (the median band) and the central nine tenths (the p90 band) of those errors, each source
//! weighing alike and each range widened for the few sources it rests on (crates/validate says
//! how). A model that is mostly too fast for a kind of workload gets a band that says so, not a
//! symmetric one. The bands are what that run gives on the committed corpus, kept in the data
//! file crates/perf/data/bands.toml, which `validate --cv -o` writes; a test in crates/validate
//! checks it. A band spans every scope around its class that three sources or more measured
//! (the class, its pattern on its medium under any release, its pattern anywhere; every case
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
            (_, Access::SeqWrite | Access::Overwrite) => Pattern::SequentialWrite,
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

/// A range of signed errors of a prediction, (predicted - measured) / measured, percent: a
/// positive error is a prediction faster than the machine measured. The bands file and the
/// JSON write it as `[low, high]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(from = "[f64; 2]", into = "[f64; 2]")]
pub struct Interval {
    /// Its lowest error (a prediction too slow by this much, where negative).
    pub low_pct: f64,
    /// Its highest.
    pub high_pct: f64,
}

impl From<[f64; 2]> for Interval {
    fn from([low_pct, high_pct]: [f64; 2]) -> Interval {
        Interval { low_pct, high_pct }
    }
}

impl From<Interval> for [f64; 2] {
    fn from(i: Interval) -> [f64; 2] {
        [i.low_pct, i.high_pct]
    }
}

impl Interval {
    /// Whether the signed error `error_pct` falls within it.
    pub fn holds(&self, error_pct: f64) -> bool {
        (self.low_pct..=self.high_pct).contains(&error_pct)
    }

    /// The smallest range holding both.
    pub fn hull(self, other: Interval) -> Interval {
        Interval {
            low_pct: self.low_pct.min(other.low_pct),
            high_pct: self.high_pct.max(other.high_pct),
        }
    }

    /// The same range as the measured value relative to the prediction, percent, up to
    /// `MAX_PCT`: an error e is a measurement of prediction / (1 + e), so the ends swap and
    /// stretch (a prediction 50% too fast is a measurement 33% below it; one 50% too slow, a
    /// measurement 100% above it).
    pub fn of_measured(&self) -> Interval {
        let measured = |e: f64| (100.0 / (1.0 + e / 100.0) - 100.0).min(MAX_PCT);
        Interval {
            low_pct: measured(self.high_pct),
            high_pct: measured(self.low_pct),
        }
    }

    /// How far its farther end lies from 0: the range within +/- this.
    pub fn reach(&self) -> f64 {
        self.low_pct.abs().max(self.high_pct.abs())
    }
}

/// The cross-validated errors of the cases of one scope.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Band {
    /// The cases it pools.
    pub scope: Scope,
    /// The median band: the central half of the scope's held-out errors, each source weighing
    /// alike, widened for the sources it rests on.
    pub p50: Interval,
    /// The p90 band: their central nine tenths, so widened.
    pub p90: Interval,
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
# on the committed validation corpus (crates/perf/src/expected_error.rs says how they are used).
# Each is a range [low, high] of signed errors, (predicted - measured) / measured in percent:
# p50 the central half of its scope's held-out errors, p90 their central nine tenths, each
# source weighing alike, widened for the sources behind it (crates/validate/src/bands.rs). A
# band without `era` pools its pattern on its medium under every release; without `medium`
# too, its pattern everywhere. Rewritten by
#   zpoolsim validate --cv -o crates/perf/data/bands.toml --force
# and checked by crates/validate/tests/committed.rs; review the diff.
";

/// The largest error a band may state, percent: past it the model has no answer.
const MAX_PCT: f64 = 10_000.0;

/// Sources a scope's band must rest on to widen the bands within it; a class with fewer says
/// so (issue 29: one or two machines' errors do not say what the next machine's will be).
pub const FEW_SOURCES: u32 = 3;

/// The band of every cross-validated case, which a class no scope around it of
/// `FEW_SOURCES` sources covers takes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overall {
    /// The median band over every case.
    pub p50: Interval,
    /// The p90 band over every case.
    pub p90: Interval,
    /// The cases behind them.
    pub cases: u32,
}

/// The bands of every scope the corpus measured, and the overall figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Bands {
    /// The bands over every case.
    pub overall: Overall,
    /// In the order `validate --cv` meets the scopes.
    pub bands: Vec<Band>,
}

/// The error to expect of one prediction: its bands and whether few measurements stand
/// behind them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expected {
    /// Where its error typically lies: the median band.
    pub p50: Interval,
    /// Where nine in ten lie: the p90 band.
    pub p90: Interval,
    /// The class has fewer than `FEW_SOURCES` sources: it took the bands around it.
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
    p50: Interval,
    p90: Interval,
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

    /// Reads a bands file: known scopes, each once, with -100 <= p90 low <= p50 low <= p50
    /// high <= p90 high <= 10,000% and 1 <= sources <= cases, whose classes' cases add up to
    /// the overall figures'.
    pub fn from_toml(text: &str) -> Result<Bands, String> {
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        check_band("overall", file.overall.p50, file.overall.p90)?;
        let mut bands: Vec<Band> = Vec::new();
        for r in file.band {
            let scope = Scope {
                pattern: r.pattern,
                medium: r.medium,
                era: r.era,
            };
            let name = scope.to_string();
            check_band(&name, r.p50, r.p90)?;
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
                p50: r.p50,
                p90: r.p90,
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
            "{FILE_HEADER}\n[overall]\n{}cases = {}\n",
            figures(o.p50, o.p90),
            o.cases
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
                "{}cases = {}\nsources = {}\n",
                figures(b.p50, b.p90),
                b.cases,
                b.sources
            );
        }
        out
    }

    /// The error to expect of a prediction of `class`: the bands of the scopes around it that
    /// `FEW_SOURCES` sources or more measured (the class itself, its pattern on its medium
    /// under any release, its pattern anywhere), each end the farthest of theirs, or every
    /// case's where none has. A class's errors from a handful of machines can be narrow by
    /// luck; those of the workloads around it rest on more.
    pub fn expected(&self, class: ErrorClass) -> Expected {
        let (cases, sources) = self
            .band(Scope::of(class))
            .map_or((0, 0), |b| (b.cases, b.sources));
        let o = &self.overall;
        let (p50, p90) = Scope::around(class)
            .iter()
            .filter_map(|s| self.band(*s))
            .filter(|b| b.sources >= FEW_SOURCES)
            .map(|b| (b.p50, b.p90))
            .reduce(|(a50, a90), (b50, b90)| (a50.hull(b50), a90.hull(b90)))
            .unwrap_or((o.p50, o.p90));
        Expected {
            p50,
            p90,
            few: sources < FEW_SOURCES,
            cases,
            sources,
        }
    }

    fn band(&self, scope: Scope) -> Option<&Band> {
        self.bands.iter().find(|b| b.scope == scope)
    }
}

/// A band's two ranges as the file writes them.
fn figures(p50: Interval, p90: Interval) -> String {
    format!(
        "p50 = [{:.1}, {:.1}]\np90 = [{:.1}, {:.1}]\n",
        p50.low_pct, p50.high_pct, p90.low_pct, p90.high_pct
    )
}

/// A median band within its p90 band, within -100% (a prediction of nothing) and `MAX_PCT`.
fn check_band(what: &str, p50: Interval, p90: Interval) -> Result<(), String> {
    let ends = [p90.low_pct, p50.low_pct, p50.high_pct, p90.high_pct];
    if -100.0 <= ends[0] && ends.windows(2).all(|w| w[0] <= w[1]) && ends[3] <= MAX_PCT {
        Ok(())
    } else {
        Err(format!(
            "{what}: p50 {:?}, p90 {:?}: expected -100 <= p90 low <= p50 low <= p50 high <= p90 high <= {MAX_PCT}",
            <[f64; 2]>::from(p50),
            <[f64; 2]>::from(p90)
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

/// The class in words, with what its bands rest on.
pub(crate) fn describe(class: ErrorClass) -> String {
    let e = expected_error(class);
    match (e.sources, e.few) {
        (0, _) => format!(
            "{class} (few measurements like this one: none in the corpus, so the errors of the kinds around it)"
        ),
        (_, true) => format!(
            "{class} (few measurements like this one: {} from {} source(s), so the errors of the kinds around it that {FEW_SOURCES} or more sources measured)",
            e.cases, e.sources
        ),
        _ => format!(
            "{class} ({} published measurements from {} sources, cross-validated, and the kinds around it)",
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
        // A median band reaching past its p90 band is no band.
        let loose = "band = []\n[overall]\np50 = [-10.0, 10.0]\np90 = [-5.0, 50.0]\ncases = 0\n";
        assert_eq!(
            Bands::from_toml(loose),
            Err("overall: p50 [-10.0, 10.0], p90 [-5.0, 50.0]: expected -100 <= p90 low <= p50 low <= p50 high <= p90 high <= 10000".into())
        );
    }

    fn band(scope: Scope, p50: [f64; 2], p90: [f64; 2], sources: u32) -> Band {
        Band {
            scope,
            p50: p50.into(),
            p90: p90.into(),
            cases: 10 * sources,
            sources,
        }
    }

    #[test]
    fn a_band_spans_the_well_measured_scopes_around_it() {
        let class = ErrorClass {
            pattern: Pattern::RandomRead,
            medium: Medium::Nvme,
            era: Era::Modern,
        };
        let [exact, medium, pattern] = Scope::around(class);
        let bands = Bands {
            overall: Overall {
                p50: [-20.0, 20.0].into(),
                p90: [-60.0, 150.0].into(),
                cases: 30,
            },
            bands: vec![
                band(exact, [5.0, 40.0], [-10.0, 300.0], 2),
                band(medium, [-30.0, 10.0], [-50.0, 50.0], 2),
                band(pattern, [-25.0, 15.0], [-70.0, 80.0], 4),
            ],
        };
        // Two sources: the pattern's bands alone (the medium's has two sources too).
        let e = bands.expected(class);
        assert_eq!(e.p50, Interval::from([-25.0, 15.0]));
        assert_eq!((e.p90, e.few), (Interval::from([-70.0, 80.0]), true));
        // Three sources: no longer few, and each end the farther of its own and its
        // pattern's; a model too fast here keeps a band reaching up.
        let mut enough = bands.clone();
        enough.bands[0].sources = 3;
        let e = enough.expected(class);
        assert_eq!(e.p50, Interval::from([-25.0, 40.0]));
        assert_eq!((e.p90, e.few), (Interval::from([-70.0, 300.0]), false));
        // A class nobody measured on another medium: the pattern's, and it says so.
        let sata = ErrorClass {
            medium: Medium::Ssd,
            ..class
        };
        let e = bands.expected(sata);
        assert_eq!((e.p90, e.sources), (Interval::from([-70.0, 80.0]), 0));
        // A pattern nobody measured: every case's bands.
        let raw = ErrorClass {
            pattern: Pattern::RawDevice,
            ..class
        };
        assert_eq!(bands.expected(raw).p90, Interval::from([-60.0, 150.0]));
    }

    #[test]
    fn an_error_range_as_the_measured_value_around_the_prediction() {
        // Predictions 50% too fast to 100% too slow: measurements from 1/1.5 to 1/0.5 of the
        // prediction, -33.3% to +100%.
        let m = Interval::from([-50.0, 50.0]).of_measured();
        assert_eq!(m.low_pct, 100.0 / 1.5 - 100.0);
        assert_eq!((m.high_pct, m.reach()), (100.0, 100.0));
        // A prediction of nothing: a measurement past any bound, stated as the bound.
        assert_eq!(
            Interval::from([-100.0, 0.0]).of_measured().high_pct,
            MAX_PCT
        );
        assert!(Interval::from([-5.0, 5.0]).holds(5.0) && !Interval::from([-5.0, 5.0]).holds(5.1));
    }
}
