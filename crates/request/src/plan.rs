//! `plan`: every sensible layout for the disks on the hardware, those that meet the needs, the
//! Pareto front and one recommendation.

use crate::{Error, Inputs, Measure};
use ::plan::{parse_needs, DiskPlan, DiskRequest, Disks, Rank};

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
    pub measure: Measure,
    /// How to rank the layouts under the loss target: balanced (usable space, random reads
    /// and writes together), space, iops or write.
    #[arg(long, default_value = "balanced")]
    pub rank: Rank,
    /// Keep the layouts the policy rules out: dRAID without a distributed spare or with fewer
    /// children than two redundancy groups, raidz wider than 12, single parity on disks over
    /// 4 TB beyond 6 disks.
    #[arg(long)]
    pub consider_all: bool,
}

impl PlanRequest {
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<DiskPlan, Error> {
        let request = DiskRequest {
            disks: self.disks.disks(inputs)?,
            hot_spares: self.spares,
            min_redundancy: self.min_redundancy,
            needs: parse_needs(&self.need)?,
            settings: self.measure.settings(inputs)?,
            rank: self.rank,
            consider_all: self.consider_all,
        };
        Ok(::plan::plan_disks(&request, inputs.catalog())?)
    }
}
