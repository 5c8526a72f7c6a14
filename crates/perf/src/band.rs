//! The error to expect of a prediction: the errors of its class (workload pattern, the pool's
//! medium, the release's era) when each source of the validation corpus is predicted by a
//! model refitted without it (`zpoolsim validate --cv`), as its median (p50) and its 90th
//! percentile (p90). The table is what that run gives on the committed corpus; a test in
//! crates/validate checks it. A class only one source measured takes at least the figures
//! over all classes (one machine's agreement says little of the next), and a class the corpus
//! holds no measurement of the largest p50 and p90 of any class; each says so.

use crate::release::Era;
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

/// What `zpoolsim validate --cv` gives on the committed corpus, by class.
pub const BANDS: &[Band] = &[
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialWrite,
            medium: Medium::Hdd,
            era: Era::Early,
        },
        median_pct: 4.7,
        p90_pct: 14.0,
        cases: 6,
        sources: 3,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialRead,
            medium: Medium::Hdd,
            era: Era::Early,
        },
        median_pct: 0.9,
        p90_pct: 26.9,
        cases: 6,
        sources: 2,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialWrite,
            medium: Medium::Hdd,
            era: Era::Middle,
        },
        median_pct: 13.2,
        p90_pct: 79.1,
        cases: 31,
        sources: 2,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::RawDevice,
            medium: Medium::Hdd,
            era: Era::Early,
        },
        median_pct: 0.0,
        p90_pct: 4.7,
        cases: 12,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::Rewrite,
            medium: Medium::Hdd,
            era: Era::Middle,
        },
        median_pct: 15.4,
        p90_pct: 28.9,
        cases: 26,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialRead,
            medium: Medium::Hdd,
            era: Era::Middle,
        },
        median_pct: 27.2,
        p90_pct: 60.4,
        cases: 26,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::Seeks,
            medium: Medium::Hdd,
            era: Era::Middle,
        },
        median_pct: 36.2,
        p90_pct: 49.5,
        cases: 26,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialWrite,
            medium: Medium::Ssd,
            era: Era::Middle,
        },
        median_pct: 26.3,
        p90_pct: 37.2,
        cases: 16,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::Rewrite,
            medium: Medium::Ssd,
            era: Era::Middle,
        },
        median_pct: 40.4,
        p90_pct: 54.3,
        cases: 16,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialRead,
            medium: Medium::Ssd,
            era: Era::Middle,
        },
        median_pct: 40.4,
        p90_pct: 48.1,
        cases: 16,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialWrite,
            medium: Medium::Hdd,
            era: Era::Modern,
        },
        median_pct: 0.8,
        p90_pct: 1.6,
        cases: 12,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::RandomWrite,
            medium: Medium::Hdd,
            era: Era::Modern,
        },
        median_pct: 14.3,
        p90_pct: 30.2,
        cases: 12,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::RandomRead,
            medium: Medium::Hdd,
            era: Era::Modern,
        },
        median_pct: 22.6,
        p90_pct: 23.4,
        cases: 8,
        sources: 1,
    },
    Band {
        class: ErrorClass {
            pattern: Pattern::SequentialRead,
            medium: Medium::Hdd,
            era: Era::Modern,
        },
        median_pct: 4.1,
        p90_pct: 5.3,
        cases: 4,
        sources: 1,
    },
];

/// `OVERALL` as `zpoolsim validate --cv` prints it.
const OVERALL_FIGURES: (f64, f64, u32) = (18.2, 49.2, 217);

/// The median and 90th percentile over every cross-validated case, percent, and their number.
pub const OVERALL: (f64, f64, u32) = OVERALL_FIGURES;

/// The expected |error| of a prediction of `class`, percent, as (p50, p90): its class's
/// cross-validated figures; where one source alone measured the class, at least the figures
/// over all classes (one machine's agreement says little of the next); where no source
/// measured it, the largest of any class (nothing vouches for it).
pub fn expected_error(class: ErrorClass) -> (f64, f64) {
    match band(class) {
        Some(b) if b.sources >= 2 => (b.median_pct, b.p90_pct),
        Some(b) => (b.median_pct.max(OVERALL.0), b.p90_pct.max(OVERALL.1)),
        None => unmeasured(),
    }
}

/// The largest class figures, or the overall ones where there are no classes.
fn unmeasured() -> (f64, f64) {
    BANDS.iter().fold((OVERALL.0, OVERALL.1), |(m, p), b| {
        (m.max(b.median_pct), p.max(b.p90_pct))
    })
}

fn band(class: ErrorClass) -> Option<&'static Band> {
    BANDS.iter().find(|b| b.class == class)
}

/// The class in words, with what its band rests on and its p90.
pub fn describe(class: ErrorClass) -> String {
    let (_, p90) = expected_error(class);
    match band(class) {
        Some(b) if b.sources >= 2 => format!(
            "{class} ({} published measurements from {} sources, cross-validated; 9 in 10 within +/-{p90:.0}%)",
            b.cases, b.sources
        ),
        Some(b) => format!(
            "{class} ({} published measurements, all from one source: at least the figures over all {} measurements; 9 in 10 within +/-{p90:.0}%)",
            b.cases, OVERALL.2
        ),
        None => format!(
            "{class} (no published measurement of this kind in the corpus: the largest errors of any kind measured, 9 in 10 within +/-{p90:.0}%)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_band_rests_on_what_measured_it() {
        // A class two or more sources measured: its own figures.
        let shared = BANDS.iter().find(|b| b.sources >= 2).unwrap();
        assert_eq!(
            expected_error(shared.class),
            (shared.median_pct, shared.p90_pct)
        );
        // A class one source measured: at least the overall figures.
        let single = BANDS.iter().find(|b| b.sources == 1).unwrap();
        let (m, p) = expected_error(single.class);
        assert!(m >= OVERALL.0 && m >= single.median_pct);
        assert!(p >= OVERALL.1 && p >= single.p90_pct);
        // Something no source measured (random reads on NVMe under a 2008 release): the
        // widest figures of any class, and it says so.
        let never = ErrorClass {
            pattern: Pattern::RandomRead,
            medium: Medium::Nvme,
            era: Era::Early,
        };
        assert!(band(never).is_none());
        let (m, p) = expected_error(never);
        for b in BANDS {
            assert!(m >= b.median_pct && p >= b.p90_pct);
        }
        assert!(p >= m);
        assert!(describe(never).contains("no published measurement"));
    }
}
