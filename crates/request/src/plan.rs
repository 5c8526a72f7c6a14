//! `plan`: every sensible layout for the disks on the hardware, those that meet the needs, the
//! Pareto front and one recommendation.

use crate::{Criteria, Error, Inputs};
use ::plan::{parse_needs, DiskPlan, DiskRequest, Disks};

/// The disks to plan for, as plan and the system of a planned layout take them.
#[derive(clap::Args, Debug)]
pub struct DiskFlags {
    /// A system file whose host, links and controllers carry the disks (its pool is ignored).
    pub system: Option<String>,
    /// How many disks (at most 1,000); default: as many as the system file has of the disk's
    /// model.
    #[arg(long)]
    pub disks: Option<u32>,
    /// The disk: a catalog id or a size such as 16TB; default: the system file's.
    #[arg(long)]
    pub disk: Option<String>,
    /// Price of one disk in US dollars, for the $/TB column (default: the catalog's, if any).
    #[arg(long)]
    pub price: Option<f64>,
}

impl DiskFlags {
    /// The disks as given: the system file, the disk, how many and at what price.
    pub fn disks(&self, inputs: &dyn Inputs) -> Result<Disks, Error> {
        Ok(Disks {
            system: self
                .system
                .as_deref()
                .map(|s| inputs.system(s))
                .transpose()?,
            disk: self.disk.clone(),
            count: self.disks,
            price_usd: self.price,
        })
    }
}

#[derive(clap::Args, Debug)]
pub struct PlanRequest {
    #[command(flatten)]
    pub disks: DiskFlags,
    /// Hot spares to set aside before building layouts.
    #[arg(long, default_value_t = 0)]
    pub spares: u32,
    /// Leaf failures every vdev must survive (0: stripes too).
    #[arg(long, default_value_t = 0)]
    pub min_redundancy: u32,
    /// What a layout must reach: read>=500MB/s,write>=300MB/s,iops>=2000,avail>=40TB,loss<=1%.
    #[arg(long, default_value = "")]
    pub need: String,
    #[command(flatten)]
    pub criteria: Criteria,
}

impl PlanRequest {
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<DiskPlan, Error> {
        let request = DiskRequest {
            disks: self.disks.disks(inputs)?,
            hot_spares: self.spares,
            min_redundancy: self.min_redundancy,
            needs: parse_needs(&self.need)?,
            settings: self.criteria.settings(inputs)?,
        };
        Ok(::plan::plan_disks(&request, inputs.catalog())?)
    }
}
