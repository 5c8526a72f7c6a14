//! Why a plan or a comparison could not be made.

use crate::needs::Need;
use crate::recommend::NearMiss;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum PlanError {
    /// The machine has no disks to build a pool on.
    NoDisks,
    /// More disks were asked for than the machine has bays and free ports for.
    NotEnoughBays {
        system: String,
        disk: String,
        bays: u32,
        disks: u32,
    },
    /// A layout needs more disks than there are.
    LayoutDoesNotFit {
        layout: String,
        leaves: u32,
        disks: u32,
    },
    /// No layout of these disks survives the redundancy asked for.
    NoCandidates {
        disks: u32,
        hot_spares: u32,
        min_redundancy: u32,
    },
    /// Every layout misses a need: the closest ones, nearest first.
    NothingMeetsNeeds {
        disks: u32,
        needs: Vec<Need>,
        closest: Vec<NearMiss>,
    },
    /// An engine refused a candidate.
    Engine { layout: String, message: String },
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
            PlanError::NoCandidates {
                disks,
                hot_spares,
                min_redundancy,
            } => write!(
                f,
                "no layout of {disks} disks with {hot_spares} hot spares survives {min_redundancy} failures per vdev (a mirror-{} needs {} disks, a raidz{min_redundancy} at least {})",
                min_redundancy + 1,
                min_redundancy + 1,
                min_redundancy + 2
            ),
            PlanError::NothingMeetsNeeds {
                disks,
                needs,
                closest,
            } => {
                let needs: Vec<String> = needs.iter().map(Need::to_string).collect();
                let closest: Vec<String> = closest.iter().map(NearMiss::to_string).collect();
                write!(
                    f,
                    "no layout of {disks} disks meets {}; closest: {}",
                    needs.join(", "),
                    closest.join("; ")
                )
            }
            PlanError::Engine { layout, message } => write!(f, "{layout}: {message}"),
        }
    }
}

impl std::error::Error for PlanError {}
