//! `compare`: chosen layouts side by side on one machine.

use crate::plan::refused;
use crate::{about, Criteria, Inputs, Refusal};
use ::plan::{candidate_on, check_work, evaluate, Evaluation, PlanError, Settings};
use model::{Layout, System};
use serde::Serialize;

/// Compare layouts on one machine's disks (disks a layout leaves over become hot spares).
#[derive(clap::Args, Debug)]
pub struct CompareRequest {
    /// The system file: its hardware and disks (its own pool layout is not used).
    pub system: String,
    /// A layout to compare, as zpool create builds it ('3x raidz1-5'); give several.
    #[arg(long = "layout", required = true)]
    pub layouts: Vec<String>,
    /// What each layout is judged by.
    #[command(flatten)]
    pub criteria: Criteria,
}

impl CompareRequest {
    /// Each layout evaluated on the system's disks, in the order asked.
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<Comparison, Refusal> {
        let system = inputs.system(&self.system).map_err(about("system"))?;
        let layouts = self
            .layouts
            .iter()
            .map(|l| l.parse::<Layout>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(about("layout"))?;
        let settings = self.criteria.settings(inputs)?;
        compare(&system, &layouts, &settings).map_err(refused)
    }
}

/// Chosen layouts evaluated on one machine.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// The system's name.
    pub system: String,
    /// How many disks the system has and the model of its first, for the text's heading.
    #[serde(skip)]
    pub disks: usize,
    /// The catalog id of the system's first disk.
    #[serde(skip)]
    pub disk: Option<String>,
    /// The criteria the layouts were judged by.
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
    check_work(layouts.len(), system.disks.len(), settings)?;
    Ok(Comparison {
        system: system.name.clone(),
        disks: system.disks.len(),
        disk: system.disks.first().map(|d| d.model.id.clone()),
        settings: settings.clone(),
        layouts: layouts
            .iter()
            .map(|layout| evaluate(system, &candidate_on(system, layout)?, settings))
            .collect::<Result<_, _>>()?,
    })
}
