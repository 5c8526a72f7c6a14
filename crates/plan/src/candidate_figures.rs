//! What the planner knows about one candidate on the hardware: the figures the engines gave.

use crate::enumerate::Candidate;
use crate::needs::Metric;
use model::{System, Workload};

/// A workload with the label it is shown under (the text the user wrote, parameters and all);
/// it serializes as its label.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledWorkload {
    /// The text the user wrote, parameters and all.
    pub label: String,
    /// The workload it reads as.
    pub workload: Workload,
}

impl serde::Serialize for LabelledWorkload {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.label)
    }
}

impl LabelledWorkload {
    /// The same workload run by clients across the network (`net=on`).
    pub fn over_network(&self) -> LabelledWorkload {
        let sep = if self.label.contains(':') { ',' } else { ':' };
        let mut workload = self.workload.clone();
        workload.network = true;
        LabelledWorkload {
            label: format!("{}{sep}net=on", self.label),
            workload,
        }
    }

    /// A workload from its command-line text (`fio-randread:qd=32`), labelled with that text.
    pub fn parse(spec: &str) -> Result<LabelledWorkload, model::WorkloadError> {
        Ok(LabelledWorkload {
            label: spec.to_string(),
            workload: Workload::parse(spec)?,
        })
    }
}

/// Throughput and IOPS the performance model predicts for one workload.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WorkloadFigures {
    /// The workload's label.
    pub workload: String,
    /// Predicted throughput, bytes per second.
    pub bytes_per_s: f64,
    /// Predicted requests per second.
    pub iops: f64,
    /// The sentence naming what limits it.
    pub bottleneck: String,
}

impl WorkloadFigures {
    /// The performance model's figures for `w` on `system`, under `w`'s label.
    pub fn predict(
        system: &System,
        w: &LabelledWorkload,
    ) -> Result<WorkloadFigures, perf::PerfError> {
        perf::predict(system, &w.workload).map(|p| WorkloadFigures {
            workload: w.label.clone(),
            bytes_per_s: p.throughput_bytes_per_s,
            iops: p.iops,
            bottleneck: p.bottleneck.sentence,
        })
    }
}

/// One candidate, evaluated.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Evaluation {
    /// The layout and its hot spares.
    #[serde(flatten)]
    pub candidate: Candidate,
    /// `zpool list` SIZE of the empty pool, bytes.
    pub size_bytes: u64,
    /// `zfs list` AVAIL of the empty pool, bytes.
    pub avail_bytes: u64,
    /// Sequential reads: one of the three figures `--need` bounds.
    pub read: WorkloadFigures,
    /// Sequential writes, bounded by `--need` too.
    pub write: WorkloadFigures,
    /// Random reads, bounded by `--need` too.
    pub random: WorkloadFigures,
    /// The other workloads asked for, in order.
    pub extra: Vec<WorkloadFigures>,
    /// Hours a vdev runs with reduced redundancy after a disk fails, worst over the groups:
    /// the sequential rebuild onto a dRAID distributed spare, else the resilver onto a hot
    /// spare or new disk (0 for a stripe: nothing to rebuild from). Without a hot spare the
    /// wait for the new disk ([`crate::policy::REPLACEMENT_HOURS`]) comes first.
    pub degraded_hours: f64,
    /// The chances of losing the pool, blocks (to an unrecoverable read error in a rebuild
    /// with no redundancy left, not the pool: docs/zfs-internals.md §7) and any data over the
    /// mission, by the MTTDL closed form; `None` when the disk has no failure rate.
    pub closed_form: Option<reliability::Odds>,
    /// Why `closed_form` is `None`: the closed form does not hold for this layout and mission.
    pub loss_unknown: Option<String>,
    /// Price of all the disks per usable TB (10^12 B of AVAIL), when the disk has a price.
    pub usd_per_usable_tb: Option<f64>,
}

impl Evaluation {
    /// Every workload's figures: read, write, random, then the others.
    pub fn workloads(&self) -> impl Iterator<Item = &WorkloadFigures> {
        [&self.read, &self.write, &self.random]
            .into_iter()
            .chain(&self.extra)
    }

    /// Probability of losing any data over the mission, the pool or blocks: what `loss<=` and
    /// the recommendation bound. A block lost to a read error is data a person loses too, and
    /// it is what makes single parity on large disks a poor bet (`None`: no failure rate).
    pub fn data_loss(&self) -> Option<f64> {
        self.closed_form.map(|o| o.data_loss)
    }

    /// The value a need on `metric` is checked against.
    pub fn metric(&self, metric: Metric) -> f64 {
        match metric {
            Metric::Read => self.read.bytes_per_s,
            Metric::Write => self.write.bytes_per_s,
            Metric::Iops => self.random.iops,
            Metric::Avail => self.avail_bytes as f64,
            Metric::Loss => self.data_loss().unwrap_or(f64::NAN),
        }
    }

    /// The objectives of the Pareto front, each oriented so that higher is better: space,
    /// every workload's throughput (IOPS for random ones is the same ordering), and safety,
    /// P(data loss) (all equal when unknown).
    pub fn objectives(&self) -> Vec<f64> {
        let mut out = vec![self.avail_bytes as f64];
        out.extend(self.workloads().map(|w| w.bytes_per_s));
        out.push(-self.data_loss().unwrap_or(0.0));
        out
    }
}
