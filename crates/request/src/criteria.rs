//! The criteria each layout is judged by (plan, compare): the workloads, the fill and the
//! mission.

use crate::numbers::in_range;
use crate::{about, Error, Inputs, Refusal};
use ::plan::policy::{FILL, STANDARD_WORKLOADS, YEARS};
use ::plan::{LabelledWorkload, Settings};
use model::input::echo;

/// The flags of the criteria, shared by plan and compare.
#[derive(clap::Args, Debug)]
pub struct Criteria {
    /// The sequential-read workload (the READ column, `read>=` needs).
    #[arg(long, default_value = STANDARD_WORKLOADS[0])]
    pub read: String,
    /// The sequential-write workload (the WRITE column, `write>=` needs).
    #[arg(long, default_value = STANDARD_WORKLOADS[1])]
    pub write: String,
    /// The random-read workload (the RAND/s column, `iops>=` needs): how many requests are in
    /// flight decides what mirrors gain over raidz (default: fio-randread:qd=32, one thread
    /// with 32 in flight; on plan with an iops>= need fio-randread:threads=8,qd=16, 8 clients
    /// of 16; or what --for sets).
    #[arg(long)]
    pub random: Option<String>,
    /// More workloads to show, NAME[:key=value,...] or a workload file; repeat for several.
    #[arg(long = "workload")]
    pub workloads: Vec<String>,
    /// How full the pool is: what a resilver rebuilds ('80%' or 0.8; 1% to 100%).
    #[arg(long, default_value_t = format!("{:.0}%", FILL * 100.0))]
    pub fill: String,
    /// The mission over which the loss probability is given, 0.1 to 100 years.
    #[arg(long, default_value_t = YEARS, value_parser = in_range(&model::range::YEARS))]
    pub years: f64,
    /// Yearly failure rate of a disk, percent ('5%' or 5; default: the field rate of its
    /// class, docs/assumptions.md: 1.57% for hard disks, 0.98% for SSDs), 0.01 to 99.
    #[arg(long, value_parser = crate::numbers::percent_in_range(&model::range::AFR_PCT))]
    pub afr: Option<f64>,
    /// User load running during rebuilds (a workload such as fio-randread:qd=32): DEGRADED and
    /// the loss odds use the loaded resilver; default: an idle pool.
    #[arg(long)]
    pub load: Option<String>,
    /// The share of the time the --load runs ('20%' or 0.2; 1% to 100%): a daytime load
    /// lengthens a rebuild less than one that runs around the clock.
    #[arg(long, default_value = "100%", value_name = "SHARE")]
    pub busy: String,
    /// The disks come from one batch: the loss odds are raised by a batch hazard factor shared
    /// by the disks (Gamma(4) of mean 1, docs/assumptions.md "Correlated failures").
    #[arg(long)]
    pub same_batch: bool,
}

impl Criteria {
    /// The planner's settings these flags give, workloads read through `inputs`.
    pub fn settings(&self, inputs: &dyn Inputs) -> Result<Settings, Refusal> {
        let labelled = |field: &'static str| {
            move |spec: &String| -> Result<LabelledWorkload, Refusal> {
                Ok(LabelledWorkload {
                    label: spec.clone(),
                    workload: inputs.workload(spec).map_err(about(field))?,
                })
            }
        };
        reliability::mission_hours(self.years)
            .map_err(|e| Error(format!("--years: {e}")).about("years"))?;
        Ok(Settings {
            read: labelled("read")(&self.read)?,
            write: labelled("write")(&self.write)?,
            random: labelled("random")(
                &self
                    .random
                    .clone()
                    .unwrap_or_else(|| STANDARD_WORKLOADS[2].to_string()),
            )?,
            extra: self
                .workloads
                .iter()
                .map(labelled("workload"))
                .collect::<Result<_, _>>()?,
            fill: parse_fill(&self.fill).map_err(about("fill"))?,
            years: self.years,
            afr_pct: self.afr,
            load: self.load.as_ref().map(labelled("load")).transpose()?,
            busy: parse_share(&self.busy, &model::range::BUSY).map_err(about("busy"))?,
            same_batch: self.same_batch,
        })
    }
}

/// `80%` or `0.8`, from 1% to 100% (model::range::FILL).
pub fn parse_fill(text: &str) -> Result<f64, Error> {
    parse_share(text, &model::range::FILL)
}

/// A share of the pool (`80%` or `0.8`) within `range`, named by its flag when refused.
pub(crate) fn parse_share(text: &str, range: &model::range::Range) -> Result<f64, Error> {
    model::range::share(text, range).ok_or_else(|| {
        Error(format!(
            "{} '{}': {}",
            range.name,
            echo(text),
            model::range::share_refusal(range)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_as_percent_or_share() {
        assert_eq!(parse_fill("80%").unwrap(), 0.8);
        assert_eq!(parse_fill("0.5").unwrap(), 0.5);
        assert!(parse_fill("120%").unwrap_err().0.contains("80%"));
        assert!(parse_fill("full").is_err());
        let busy = |t| parse_share(t, &model::range::BUSY);
        assert_eq!(busy("20%").unwrap(), 0.2);
        assert_eq!(
            busy("0%").unwrap_err().0,
            "--busy '0%': give a share of the time from 1% to 100%, like 80% or 0.8"
        );
    }
}
