//! What the planner knows about one candidate on the hardware: the figures the engines gave.

use crate::enumerate::Candidate;
use crate::needs::Metric;

/// Throughput and IOPS the performance model predicts for one workload.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadFigures {
    pub workload: String,
    pub bytes_per_s: f64,
    pub iops: f64,
    /// The sentence naming what limits it.
    pub bottleneck: String,
}

/// One candidate, evaluated.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    pub candidate: Candidate,
    /// `zpool list` SIZE and `zfs list` AVAIL of the empty pool, bytes.
    pub size_bytes: u64,
    pub avail_bytes: u64,
    /// Sequential read and write, bytes/s, and random reads/s: what `--need` bounds.
    pub read_bytes_per_s: f64,
    pub write_bytes_per_s: f64,
    pub random_read_iops: f64,
    /// Every workload asked for, in order (the three above come from the first three).
    pub workloads: Vec<WorkloadFigures>,
    /// Hours a vdev runs with reduced redundancy after a disk fails, worst over the groups:
    /// the sequential rebuild onto a dRAID distributed spare, else the resilver onto a hot
    /// spare or new disk (0 for a stripe: nothing to rebuild from). Without a hot spare the
    /// wait for the new disk ([`crate::evaluate::REPLACEMENT_HOURS`]) comes first.
    pub degraded_hours: f64,
    /// Probability of losing the whole pool over the mission; `None` when the disk has no
    /// failure rate.
    pub pool_loss_probability: Option<f64>,
    /// Probability that an unrecoverable read error, in a rebuild running with no redundancy
    /// left, loses blocks (not the pool, zfs-facts.md §7) over the mission.
    pub block_loss_probability: Option<f64>,
    /// Price of all the disks per usable TB (10^12 B of AVAIL), when the disk has a price.
    pub usd_per_usable_tb: Option<f64>,
}

impl Evaluation {
    /// Probability of losing any data over the mission, the pool or blocks: what `loss<=` and
    /// the recommendation bound. A block lost to a read error is data a person loses too, and
    /// it is what makes single parity on large disks a poor bet (`None`: no failure rate).
    pub fn data_loss_probability(&self) -> Option<f64> {
        let pool = self.pool_loss_probability?;
        let block = self.block_loss_probability.unwrap_or(0.0);
        Some(1.0 - (1.0 - pool) * (1.0 - block))
    }

    /// The value a need on `metric` is checked against.
    pub fn metric(&self, metric: Metric) -> f64 {
        match metric {
            Metric::Read => self.read_bytes_per_s,
            Metric::Write => self.write_bytes_per_s,
            Metric::Iops => self.random_read_iops,
            Metric::Avail => self.avail_bytes as f64,
            Metric::Loss => self.data_loss_probability().unwrap_or(f64::NAN),
        }
    }

    /// The objectives of the Pareto front, each oriented so that higher is better: space,
    /// every workload's throughput (IOPS for random ones is the same ordering), and safety,
    /// P(data loss) (all equal when unknown).
    pub fn objectives(&self) -> Vec<f64> {
        let mut out = vec![self.avail_bytes as f64];
        out.extend(self.workloads.iter().map(|w| w.bytes_per_s));
        out.push(-self.data_loss_probability().unwrap_or(0.0));
        out
    }
}
