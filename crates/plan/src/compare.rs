//! Chosen layouts side by side on one machine.

use crate::error::PlanError;
use crate::evaluate::{evaluate, Settings};
use crate::evaluation::Evaluation;
use crate::machine::candidate_on;
use model::{Layout, System};

/// Each layout on all of `system`'s disks (those it leaves over are hot spares), in order.
pub fn compare(
    system: &System,
    layouts: &[Layout],
    settings: &Settings,
) -> Result<Vec<Evaluation>, PlanError> {
    layouts
        .iter()
        .map(|layout| evaluate(system, &candidate_on(system, layout)?, settings))
        .collect()
}
