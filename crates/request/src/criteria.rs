//! The criteria each layout is judged by (plan, compare): the workloads, the fill and the
//! mission.

use crate::{Error, Inputs};
use ::plan::policy::{FILL, STANDARD_WORKLOADS, YEARS};
use ::plan::{LabelledWorkload, Settings};

#[derive(clap::Args, Debug)]
pub struct Criteria {
    /// The sequential-read workload (the READ column, `read>=` needs).
    #[arg(long, default_value = STANDARD_WORKLOADS[0])]
    pub read: String,
    /// The sequential-write workload (the WRITE column, `write>=` needs).
    #[arg(long, default_value = STANDARD_WORKLOADS[1])]
    pub write: String,
    /// The random-read workload (the RAND/s column, `iops>=` needs).
    #[arg(long, default_value = STANDARD_WORKLOADS[2])]
    pub random: String,
    /// More workloads to show, NAME[:key=value,...] or a workload file; repeat for several.
    #[arg(long = "workload")]
    pub workloads: Vec<String>,
    /// How full the pool is: what a resilver rebuilds ('80%' or 0.8).
    #[arg(long, default_value_t = format!("{:.0}%", FILL * 100.0))]
    pub fill: String,
    /// The mission over which the loss probability is given, years.
    #[arg(long, default_value_t = YEARS)]
    pub years: f64,
}

impl Criteria {
    pub fn settings(&self, inputs: &dyn Inputs) -> Result<Settings, Error> {
        let labelled = |spec: &String| -> Result<LabelledWorkload, Error> {
            Ok(LabelledWorkload {
                label: spec.clone(),
                workload: inputs.workload(spec)?,
            })
        };
        reliability::mission_hours(self.years).map_err(|e| Error(format!("--years: {e}")))?;
        Ok(Settings {
            read: labelled(&self.read)?,
            write: labelled(&self.write)?,
            random: labelled(&self.random)?,
            extra: self
                .workloads
                .iter()
                .map(labelled)
                .collect::<Result<_, _>>()?,
            fill: parse_fill(&self.fill)?,
            years: self.years,
        })
    }
}

/// `80%` or `0.8`, between 0 and 1.
pub fn parse_fill(text: &str) -> Result<f64, Error> {
    let (number, divisor) = match text.trim().strip_suffix('%') {
        Some(n) => (n, 100.0),
        None => (text.trim(), 1.0),
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .map(|v| v / divisor)
        .filter(|f| (0.0..=1.0).contains(f))
        .ok_or_else(|| {
            Error(format!(
                "--fill '{text}': expected a share of the pool like 80% or 0.8"
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
    }
}
