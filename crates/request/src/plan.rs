//! `plan`: every sensible layout for the disks on the hardware, those that meet the needs, the
//! Pareto front and one recommendation.

use crate::{about, Criteria, Error, Inputs, Refusal};
use ::plan::policy::Purpose;
use ::plan::{
    parse_needs, DiskPlan, DiskRequest, Disks, GrowthOption, LabelledWorkload, Metric, PlanError,
    Rank,
};
use model::pool::auto_ashift;
use model::Leaf;
use serde::Serialize;
use space::Profile;

/// The disks to plan for, as plan and the system of a planned layout take them.
#[derive(clap::Args, Debug)]
pub struct DiskFlags {
    /// A system file whose host, links and controllers carry the disks; its special, dedup,
    /// log, cache and spare devices keep their roles, its data vdevs are replaced.
    pub system: Option<String>,
    /// How many disks (at most 1,000); default: as many as the system file has of the disk's
    /// model.
    #[arg(long)]
    pub disks: Option<u32>,
    /// The disk: a catalog id or a size such as 16TB; default: the system file's.
    #[arg(long)]
    pub disk: Option<String>,
    /// Price of one disk, 1 to 100000 US dollars per disk, for the $/TB column (default: the
    /// catalog's, if any).
    #[arg(long, value_parser = crate::numbers::in_range(&model::range::PRICE_USD))]
    pub price: Option<f64>,
}

impl DiskFlags {
    /// The disks as given: the system file, the disk, how many and at what price.
    pub fn disks(&self, inputs: &dyn Inputs) -> Result<Disks, Refusal> {
        Ok(Disks {
            system: self
                .system
                .as_deref()
                .map(|s| inputs.system(s))
                .transpose()
                .map_err(about("system"))?,
            disk: self.disk.clone(),
            count: self.disks,
            price_usd: self.price,
        })
    }
}

/// `plan`: every sensible layout of the disks, those meeting the needs, one recommended.
#[derive(clap::Args, Debug)]
pub struct PlanRequest {
    /// The disks to plan for.
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
    /// What each layout is judged by.
    #[command(flatten)]
    pub criteria: Criteria,
    /// Start with --disks and grow to this many by raidz expansion (OpenZFS 2.3 on: zpool
    /// attach, one disk per vdev at a time): the raidz layouts that can and that the policy
    /// keeps (--consider-all: all), and the space each step really gives; the pick is then a
    /// raidz layout, one that can grow.
    #[arg(long, value_name = "DISKS")]
    pub grow_to: Option<u32>,
    /// With --grow-to: how full the pool is (zpool list CAP) at each widening.
    #[arg(long, default_value = "80%", value_name = "SHARE")]
    pub grow_fill: String,
    /// What the pool is for: general, vm, database, backup or media; each sets the ranking
    /// and the random workload an admin would judge by (docs/assumptions.md "The planner's
    /// policy"; --rank and --random still win). Default: general.
    #[arg(long = "for", value_name = "PURPOSE")]
    pub purpose: Option<Purpose>,
    /// How to rank the layouts under the loss target: usable (the most usable space among
    /// those at least half as fast as the best at sequential reads and writes, random reads
    /// deciding near ties), space, iops or write. Default: what --for sets, else usable.
    #[arg(long)]
    pub rank: Option<Rank>,
    /// Keep the layouts the policy rules out: dRAID without a distributed spare or with fewer
    /// children than two redundancy groups, raidz wider than 12, single parity on disks over
    /// 4 TB beyond 6 disks.
    #[arg(long)]
    pub consider_all: bool,
}

/// The plan, and with --grow-to the layouts grown by raidz expansion.
#[derive(Serialize)]
pub struct PlanAnswer {
    /// The plan, and the machine it was made on.
    #[serde(flatten)]
    pub plan: DiskPlan,
    /// With --grow-to: the layouts grown by raidz expansion, most space at the end first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub growth: Option<Vec<GrowthOption>>,
}

impl PlanRequest {
    /// The plan of the disks asked for, and with --grow-to their growth.
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<PlanAnswer, Refusal> {
        let fill = self.grow_fill().map_err(about("grow_fill"))?;
        let purpose = self.purpose.unwrap_or_default();
        let mut settings = self.criteria.settings(inputs)?;
        let needs = parse_needs(&self.need).map_err(about("need"))?;
        if self.criteria.random.is_none() {
            let iops_need = needs.iter().any(|n| n.metric == Metric::Iops);
            settings.random = LabelledWorkload::parse(purpose.random_workload(iops_need))
                .expect("the purposes' workloads parse");
        }
        let request = DiskRequest {
            disks: self.disks.disks(inputs)?,
            terms: ::plan::Terms {
                hot_spares: self.spares,
                min_redundancy: self.min_redundancy,
                needs,
                settings,
                rank: self.rank.unwrap_or(purpose.rank()),
                consider_all: self.consider_all,
            },
            grow_to: self.grow_to,
        };
        let cancel = inputs.cancel();
        let plan =
            ::plan::plan_disks_cancellable(&request, inputs.catalog(), &cancel).map_err(refused)?;
        let growth = match self.grow_to {
            Some(end) => Some(self.growth(&plan, end, fill).map_err(about("grow_to"))?),
            None => None,
        };
        Ok(PlanAnswer { plan, growth })
    }

    /// The raidz layouts of the planned disks (less the spares) grown to `end` disks.
    /// --grow-fill as a share: at most 90%, so that every layout can take it.
    fn grow_fill(&self) -> Result<f64, Error> {
        crate::criteria::parse_share(&self.grow_fill, &model::range::GROW_FILL)
    }

    fn growth(&self, plan: &DiskPlan, end: u32, fill: f64) -> Result<Vec<GrowthOption>, Error> {
        let start = (plan.disks as u32).saturating_sub(self.spares);
        if end <= start || end > ::plan::MAX_DISKS {
            return Err(Error(format!(
                "--grow-to {end}: expected more disks than the {start} planned, at most {}",
                ::plan::MAX_DISKS
            )));
        }
        let release = plan.machine.host.zfs;
        let profile = Profile::of(release);
        if !profile.raidz_expansion {
            return Err(Error(format!(
                "--grow-to: raidz expansion needs OpenZFS 2.3 or later, the system runs {release}"
            )));
        }
        let model = &plan.machine.disks[0].model;
        let leaf = Leaf {
            capacity_bytes: model.capacity_bytes,
            logical_sector: model.logical_sector,
            whole_disk: true,
        };
        let ashift = auto_ashift(model.logical_sector, model.physical_sector, release);
        let parity = self.min_redundancy;
        let options = ::plan::grow(leaf, ashift, &profile, (start, end), parity, fill);
        Ok(if self.consider_all {
            options
        } else {
            ::plan::within_policy(options, model.capacity_bytes)
        })
    }
}

/// A planner's refusal, about the field whose value it turns down.
pub(crate) fn refused(e: PlanError) -> Refusal {
    let field = match &e {
        PlanError::NotEnoughBays { .. }
        | PlanError::NoCountGiven
        | PlanError::TooManyDisks { .. }
        | PlanError::ReportTooManyDisks { .. }
        | PlanError::NoDisks => Some("disks"),
        PlanError::UnknownDisk { .. } | PlanError::NoDiskGiven { .. } => Some("disk"),
        PlanError::BadPrice { .. } => Some("price"),
        // No disks at all is the count's fault even with spares (PlanError's own sentence
        // says so); spares that leave none are the spares'.
        PlanError::NoCandidates { disks: 0, .. } => Some("disks"),
        PlanError::NoCandidates {
            disks, hot_spares, ..
        } if hot_spares >= disks => Some("spares"),
        PlanError::NoCandidates { .. } => Some("min_redundancy"),
        PlanError::NothingMeetsNeeds { .. } => Some("need"),
        PlanError::OverBudget(_) => Some("workload"),
        PlanError::LayoutDoesNotFit { .. } => Some("layout"),
        _ => None,
    };
    Refusal {
        field: field.map(str::to_string),
        error: e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::refused;
    use ::plan::PlanError;

    fn field(disks: u32, hot_spares: u32, min_redundancy: u32) -> Option<String> {
        refused(PlanError::NoCandidates {
            disks,
            hot_spares,
            min_redundancy,
        })
        .field
    }

    /// No disks at all is the disk count's fault, whatever the spares; spares that take every
    /// disk are the spares' fault; disks left that no layout can protect enough, the
    /// redundancy asked for.
    #[test]
    fn a_layout_missing_for_want_of_disks_blames_the_right_field() {
        assert_eq!(field(0, 0, 0).as_deref(), Some("disks"));
        assert_eq!(field(0, 3, 0).as_deref(), Some("disks"));
        assert_eq!(field(4, 4, 0).as_deref(), Some("spares"));
        assert_eq!(field(5, 30, 0).as_deref(), Some("spares"));
        assert_eq!(field(2, 0, 3).as_deref(), Some("min_redundancy"));
    }
}
