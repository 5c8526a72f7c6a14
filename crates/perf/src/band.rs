//! The error to expect of a prediction: the median error of its class of workload and medium
//! when each source of the validation corpus is predicted by a model refitted without it
//! (`zpoolsim validate --cv`). The table is what that run gives on the committed corpus; a test
//! in crates/validate checks it. A class only one source measured takes at least the median
//! over all classes, and a class the corpus holds no measurement of the largest median of any
//! class; each says so.

use model::hardware::Medium;
use model::workload::{Access, Target, Workload};
use model::System;
use serde::Serialize;

/// What a prediction measures, for its expected error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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

/// A pattern on a kind of leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ErrorClass {
    pub pattern: Pattern,
    pub hard_disks: bool,
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
        let hard_disks = system
            .disks
            .first()
            .is_none_or(|d| d.model.medium == Medium::Hdd);
        ErrorClass {
            pattern,
            hard_disks,
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
        let medium = if self.hard_disks {
            "hard disks"
        } else {
            "solid state"
        };
        write!(f, "{pattern} on {medium}")
    }
}

/// The cross-validated errors of one class.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Band {
    pub class: ErrorClass,
    /// Median |error| of the class's cases, each predicted with constants fitted without
    /// its source, percent.
    pub median_pct: f64,
    /// Cases and sources behind it.
    pub cases: u32,
    pub sources: u32,
}

/// What `zpoolsim validate --cv` gives on the committed corpus, by class.
pub const BANDS: &[Band] = &[
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialWrite,
            hard_disks: true,
        },
        median_pct: 11.5,
        cases: 37,
        sources: 5,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialRead,
            hard_disks: true,
        },
        median_pct: 12.7,
        cases: 32,
        sources: 3,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::RawDevice,
            hard_disks: true,
        },
        median_pct: 0.0,
        cases: 12,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::Rewrite,
            hard_disks: true,
        },
        median_pct: 30.3,
        cases: 26,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::Seeks,
            hard_disks: true,
        },
        median_pct: 16.3,
        cases: 26,
        sources: 1,
    },
];

/// The median over every cross-validated case, percent, and their number.
pub const OVERALL: (f64, u32) = (14.6, 133);

/// The expected |error| of a prediction of `class`, percent: its class's cross-validated
/// median; where one source alone measured the class, at least the median over all classes
/// (one machine's agreement says little of the next); where no source measured it, the
/// largest median of any class (nothing vouches for it).
pub fn expected_error_pct(class: ErrorClass) -> f64 {
    match band(class) {
        Some(b) if b.sources >= 2 => b.median_pct,
        Some(b) => b.median_pct.max(OVERALL.0),
        None => unmeasured_pct(),
    }
}

/// The largest class median, or the overall median where there are no classes.
fn unmeasured_pct() -> f64 {
    BANDS.iter().map(|b| b.median_pct).fold(OVERALL.0, f64::max)
}

fn band(class: ErrorClass) -> Option<&'static Band> {
    BANDS.iter().find(|b| b.class == class)
}

/// The class in words, with what its band rests on.
pub fn describe(class: ErrorClass) -> String {
    match band(class) {
        Some(b) if b.sources >= 2 => format!(
            "{class} ({} published measurements from {} sources, cross-validated)",
            b.cases, b.sources
        ),
        Some(b) => format!(
            "{class} ({} published measurements, all from one source: at least the median over all {} measurements)",
            b.cases, OVERALL.1
        ),
        None => format!(
            "{class} (no published measurement of this kind in the corpus: the largest error of any kind measured)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(pattern: Pattern, hard_disks: bool) -> ErrorClass {
        ErrorClass {
            pattern,
            hard_disks,
        }
    }

    #[test]
    fn a_band_rests_on_what_measured_it() {
        // Sequential writes on hard disks: five sources, their own median.
        let writes = band(class(Pattern::SequentialWrite, true)).unwrap();
        assert!(writes.sources >= 2);
        let got = expected_error_pct(writes.class);
        assert_eq!(got, writes.median_pct);
        // Raw devices: one source whose cases all land in range (0%): the overall median.
        let raw = band(class(Pattern::RawDevice, true)).unwrap();
        assert_eq!((raw.sources, raw.median_pct), (1, 0.0));
        assert_eq!(expected_error_pct(raw.class), OVERALL.0);
        // Nothing on solid state: the worst class's median, above the overall one.
        let flash = expected_error_pct(class(Pattern::SequentialRead, false));
        let worst = BANDS.iter().map(|b| b.median_pct).fold(0.0, f64::max);
        assert_eq!(flash, worst);
        assert!(flash > OVERALL.0);
        assert!(describe(class(Pattern::RandomRead, false)).contains("no published measurement"));
    }
}
