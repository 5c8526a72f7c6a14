//! Why a plan or a comparison could not be made.

use crate::needs::Need;
use crate::policy::MAX_DISKS;
use crate::recommend::NearMiss;
use model::layout::MAX_PARITY;
use std::fmt;

/// Why a plan, a report or a comparison could not be made; each variant reads as one sentence.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanError {
    /// The machine has no disks to build a pool on.
    NoDisks,
    /// More disks were asked for than the machine has bays and free ports for.
    NotEnoughBays {
        /// The machine's name.
        system: String,
        /// The disk model asked for.
        disk: String,
        /// Disks the machine has room for.
        bays: u32,
        /// Disks asked for.
        disks: u32,
    },
    /// A layout needs more disks than there are.
    LayoutDoesNotFit {
        /// The layout as written.
        layout: String,
        /// Leaves it needs.
        leaves: u32,
        /// Disks there are.
        disks: u32,
    },
    /// More disks than the planner enumerates layouts for.
    TooManyDisks {
        /// Disks asked for.
        disks: u32,
    },
    /// A report asked of more disks than the planner takes (the report plans them too).
    ReportTooManyDisks {
        /// Disks asked for.
        disks: u32,
    },
    /// A plan or comparison past its work budget.
    OverBudget(model::budget::OverBudget),
    /// No layout of these disks survives the redundancy asked for.
    NoCandidates {
        /// Disks planned for.
        disks: u32,
        /// Hot spares set aside.
        hot_spares: u32,
        /// Leaf failures every vdev must survive.
        min_redundancy: u32,
    },
    /// Every layout misses a need: the closest ones, nearest first.
    NothingMeetsNeeds {
        /// Disks planned for.
        disks: u32,
        /// The needs asked for.
        needs: Vec<Need>,
        /// The layouts nearest to meeting them.
        closest: Vec<NearMiss>,
    },
    /// An engine refused a candidate.
    Engine {
        /// The candidate's layout.
        layout: String,
        /// What the engine said.
        error: EngineError,
    },
    /// No disk to plan for: none named, and no system file (or one without disks).
    NoDiskGiven {
        /// No system file was given (else the one given has no disks).
        no_system_file: bool,
    },
    /// No number of disks, and no system file to count them in.
    NoCountGiven,
    /// A disk that is neither a catalog id nor a size the catalog has.
    UnknownDisk {
        /// The disk as written.
        text: String,
        /// Why the catalog does not know it.
        message: String,
    },
    /// A price that is not a number of dollars.
    BadPrice {
        /// The price given.
        usd: f64,
    },
    /// Stopped before the end: the answer was no longer wanted.
    Cancelled(model::cancel::Cancelled),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::NoDisks => f.write_str("the machine has no disks to build a pool on"),
            PlanError::NotEnoughBays {
                system,
                disk,
                bays,
                disks,
            } => write!(
                f,
                "'{system}' has room for {bays} disks of {disk} (its bays and free controller ports), not {disks}"
            ),
            PlanError::LayoutDoesNotFit {
                layout,
                leaves,
                disks,
            } => write!(f, "{layout} needs {leaves} disks; the machine has {disks}"),
            PlanError::TooManyDisks { disks } => write!(
                f,
                "{disks} disks: the planner takes at most {MAX_DISKS} (beyond that evaluating every layout, not ZFS, is the limit); plan a part of the pool, or compare chosen layouts with zpoolsim compare"
            ),
            PlanError::ReportTooManyDisks { disks } => write!(
                f,
                "{disks} disks: the report plans the same disks and the planner takes at most {MAX_DISKS}; ask zpoolsim capacity, predict and reliability about this pool"
            ),
            PlanError::OverBudget(why) => why.fmt(f),
            PlanError::NoCandidates {
                disks,
                hot_spares,
                min_redundancy,
            } => no_candidates(f, *disks, *hot_spares, *min_redundancy),
            PlanError::NothingMeetsNeeds {
                disks,
                needs,
                closest,
            } => nothing_meets(f, *disks, needs, closest),
            PlanError::Engine { layout, error } => write!(f, "{layout}: {error}"),
            PlanError::NoDiskGiven {
                no_system_file: true,
            } => f.write_str("give --disk (a catalog id or a size such as 16TB) or a system file"),
            PlanError::NoDiskGiven {
                no_system_file: false,
            } => f.write_str("the system file has no disks; give --disk"),
            PlanError::NoCountGiven => f.write_str("give --disks N or a system file"),
            PlanError::UnknownDisk { text, message } => {
                write!(f, "--disk {}: {message}", model::input::echo(text))
            }
            PlanError::BadPrice { usd } => {
                write!(f, "--price {usd}: expected US dollars per disk")
            }
            PlanError::Cancelled(why) => why.fmt(f),
        }
    }
}

/// The needs no layout meets, and the layouts that came closest, nearest first.
fn nothing_meets(
    f: &mut fmt::Formatter<'_>,
    disks: u32,
    needs: &[Need],
    closest: &[NearMiss],
) -> fmt::Result {
    let needs: Vec<String> = needs.iter().map(Need::to_string).collect();
    let closest: Vec<String> = closest.iter().map(NearMiss::to_string).collect();
    write!(
        f,
        "no layout of {disks} disks meets {}; closest: {}",
        needs.join(", "),
        closest.join("; ")
    )
}

/// Why no layout was left to weigh: no disks at all, none after the hot spares, or a
/// redundancy the disks cannot give, with the smallest vdev that would give it.
fn no_candidates(
    f: &mut fmt::Formatter<'_>,
    disks: u32,
    hot_spares: u32,
    min_redundancy: u32,
) -> fmt::Result {
    let pool = match disks.checked_sub(hot_spares) {
        None | Some(0) if disks == 0 => return f.write_str("a pool needs at least one disk"),
        None | Some(0) => {
            return write!(
                f,
                "no disks left for a pool after {hot_spares} hot spares of {disks} disks"
            )
        }
        Some(pool) => pool,
    };
    match min_redundancy {
        1 | 2 => write!(
            f,
            "no layout of {pool} disks survives {min_redundancy} failures per vdev: a mirror of {} disks is the smallest that does",
            min_redundancy + 1
        ),
        r if r <= MAX_PARITY => write!(
            f,
            "no layout of {pool} disks survives {r} failures per vdev: a raidz{r} of {} disks is the smallest that does",
            r + 2
        ),
        // Past raidz3 no vdev type has the parity (sys/fs/zfs.h VDEV_RAIDZ_MAXPARITY and
        // VDEV_DRAID_MAXPARITY are 3).
        r => write!(
            f,
            "no layout survives {r} failures per vdev: raidz{MAX_PARITY} and draid{MAX_PARITY} survive {MAX_PARITY}, the most"
        ),
    }
}

impl std::error::Error for PlanError {}

impl From<model::cancel::Cancelled> for PlanError {
    fn from(c: model::cancel::Cancelled) -> Self {
        PlanError::Cancelled(c)
    }
}

/// An engine's own error, kept typed as it crosses into the planner.
#[derive(Debug, Clone, PartialEq)]
pub enum EngineError {
    /// The space engine's.
    Space(space::SpaceError),
    /// The performance engine's.
    Perf(perf::PerfError),
    /// The reliability engine's.
    Reliability(reliability::Error),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Space(e) => e.fmt(f),
            EngineError::Perf(e) => e.fmt(f),
            EngineError::Reliability(e) => e.fmt(f),
        }
    }
}

impl From<space::SpaceError> for EngineError {
    fn from(e: space::SpaceError) -> Self {
        EngineError::Space(e)
    }
}

impl From<perf::PerfError> for EngineError {
    fn from(e: perf::PerfError) -> Self {
        EngineError::Perf(e)
    }
}

impl From<reliability::Error> for EngineError {
    fn from(e: reliability::Error) -> Self {
        EngineError::Reliability(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_candidates_in_plain_words() {
        let text = |disks, hot_spares, min_redundancy| {
            PlanError::NoCandidates {
                disks,
                hot_spares,
                min_redundancy,
            }
            .to_string()
        };
        assert_eq!(text(0, 0, 0), "a pool needs at least one disk");
        assert_eq!(
            text(24, 24, 0),
            "no disks left for a pool after 24 hot spares of 24 disks"
        );
        assert_eq!(
            text(3, 1, 2),
            "no layout of 2 disks survives 2 failures per vdev: a mirror of 3 disks is the smallest that does"
        );
        assert_eq!(
            text(4, 0, 3),
            "no layout of 4 disks survives 3 failures per vdev: a raidz3 of 5 disks is the smallest that does"
        );
        assert!(text(12, 0, 4).contains("survive 3, the most"));
    }
}
