//! Chosen layouts side by side on one machine.

use crate::error::PlanError;
use crate::evaluate::{evaluate, Settings};
use crate::evaluation::Evaluation;
use crate::machine::candidate_on;
use model::{Layout, System};
use serde::Serialize;

/// Chosen layouts evaluated on one machine.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub system: String,
    pub settings: Settings,
    /// One per layout asked for, in order.
    pub layouts: Vec<Evaluation>,
}

/// Each layout on all of `system`'s disks (those it leaves over are hot spares), in order.
pub fn compare(
    system: &System,
    layouts: &[Layout],
    settings: &Settings,
) -> Result<Comparison, PlanError> {
    crate::search::check_work(layouts.len(), system.disks.len(), settings)?;
    Ok(Comparison {
        system: system.name.clone(),
        settings: settings.clone(),
        layouts: layouts
            .iter()
            .map(|layout| evaluate(system, &candidate_on(system, layout)?, settings))
            .collect::<Result<_, _>>()?,
    })
}
