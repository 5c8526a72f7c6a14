//! The error to expect of a prediction: the median error of its class of workload and medium
//! when each source of the validation corpus is predicted by a model refitted without it
//! (`zpoolsim validate --cv`). The table is what that run gives on the committed corpus; a test
//! in crates/validate checks it. A class the corpus holds no measurement of takes the median
//! over all classes, and so does (at least) a class only one source measured; each says so.

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
/// median; where one source alone measured the class, at least the median over all
/// classes (one machine's agreement says little of the next); with none, that median.
pub fn expected_error_pct(class: ErrorClass) -> f64 {
    match band(class) {
        Some(b) if b.sources >= 2 => b.median_pct,
        Some(b) => b.median_pct.max(OVERALL.0),
        None => OVERALL.0,
    }
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
            "{class} (no published measurement of this kind in the corpus: the median over all {} measurements)",
            OVERALL.1
        ),
    }
}
