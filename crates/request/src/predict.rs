//! `predict`: how fast the pool will be under a workload, which resource limits it and by how
//! much, and per-device figures; or the same over a sweep of one parameter.

use crate::WordedPrediction;
use crate::{about, system_or_default, Error, Inputs, Refusal};
use model::input::echo;
use model::{System, Workload};
use serde::Serialize;

/// `predict`: how fast the pool will be under a workload, and what limits it.
#[derive(clap::Args, Debug)]
pub struct PredictRequest {
    /// The system file (hardware and pool); default: the embedded default system.
    pub system: Option<String>,
    /// The workload: NAME[:key=value,...], a benchmark's command line, or a workload file.
    #[arg(long, short)]
    pub workload: String,
    /// Sweep one parameter: threads=1,2,4,8 or bs=4K,16K,128K,1M; LOW..HIGH doubles from LOW
    /// to HIGH (threads=1..64, bs=4K..8M).
    #[arg(long)]
    pub sweep: Option<String>,
    /// Simulate the pool to give each workload's completion-time percentiles (p50, p90, p99,
    /// p99.9) and where the time goes.
    #[arg(long)]
    pub latency: bool,
}

/// One parameter and the values it takes in a sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The parameter as written (`threads`, `bs`).
    pub param: String,
    /// Its values, each as the workload takes it.
    pub values: Vec<String>,
}

/// One prediction, one per timed phase of a benchmark's command line, or one per value of a
/// sweep.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Predicted {
    /// A workload of one phase.
    One(Box<WordedPrediction>),
    /// A benchmark's command line: one per timed phase.
    Phases(Vec<WordedPrediction>),
    /// A sweep: one per value.
    Sweep(Swept),
}

/// The predictions of a sweep, one per value, with the sweep for the text beside them.
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct Swept {
    /// One prediction per value, in order.
    pub points: Vec<WordedPrediction>,
    /// The parameter swept and its values.
    #[serde(skip)]
    pub sweep: Sweep,
}

/// The prediction, with the system and workloads (one per phase) it was made for, for the
/// text and the chart beside it.
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct PredictAnswer {
    /// What `--json` prints.
    pub predicted: Predicted,
    /// The system predicted on.
    #[serde(skip)]
    pub system: System,
    /// The workloads, one per phase.
    #[serde(skip)]
    pub workloads: Vec<Workload>,
}

impl PredictRequest {
    /// The sweep asked for, its values spelled out.
    pub fn sweep(&self) -> Result<Option<Sweep>, Error> {
        let Some(spec) = &self.sweep else {
            return Ok(None);
        };
        let (param, values) = spec.split_once('=').ok_or_else(|| {
            Error(format!(
                "--sweep '{}': expected PARAM=v1,v2,...",
                echo(spec)
            ))
        })?;
        Ok(Some(Sweep {
            param: param.trim().to_string(),
            values: sweep_values(param.trim(), values)?,
        }))
    }

    /// One workload's prediction, with its latency percentiles when asked.
    fn predict(&self, system: &System, w: &Workload) -> Result<WordedPrediction, Refusal> {
        let mut p = perf::predict(system, w)?;
        if self.latency {
            p.latency_s = Some(perf::latency(system, w)?);
        }
        Ok(p.into())
    }

    /// The prediction of each phase, or of each value of the sweep.
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<PredictAnswer, Refusal> {
        if self.latency && self.sweep.is_some() {
            return Err(Error(
                "--latency simulates one workload (or its phases), not a sweep".into(),
            )
            .about("latency"));
        }
        let system = system_or_default(inputs, self.system.as_deref()).map_err(about("system"))?;
        let workloads = inputs.phases(&self.workload).map_err(about("workload"))?;
        let predicted = match (self.sweep().map_err(about("sweep"))?, workloads.as_slice()) {
            (Some(sweep), [w]) => Predicted::Sweep(Swept {
                points: perf::sweep(&system, w, &sweep.param, &sweep.values)
                    .map_err(about("sweep"))?
                    .into_iter()
                    .map(WordedPrediction::from)
                    .collect(),
                sweep,
            }),
            (Some(_), _) => {
                return Err(Error(
                    "--sweep varies one phase: add @PHASE to the command line".into(),
                )
                .about("sweep"))
            }
            (None, [w]) => Predicted::One(Box::new(self.predict(&system, w)?)),
            (None, all) => Predicted::Phases(
                all.iter()
                    .map(|w| self.predict(&system, w))
                    .collect::<Result<_, _>>()?,
            ),
        };
        Ok(PredictAnswer {
            predicted,
            system,
            workloads,
        })
    }
}

/// How a sweep range reads its bounds and labels its values.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Scale {
    /// Threads and queue depth: plain whole numbers (1..2048).
    Count,
    /// Block and data set sizes: sizes with units (4K..8M).
    Size,
}

/// The values of a sweep of `param`: a list, or LOW..HIGH doubling from LOW while at most HIGH.
fn sweep_values(param: &str, text: &str) -> Result<Vec<String>, Error> {
    let Some((lo, hi)) = text.split_once("..") else {
        return Ok(text.split(',').map(|v| v.trim().to_string()).collect());
    };
    let bad = |why: &str| {
        Error(format!(
            "--sweep {}: {why}",
            echo(&format!("{param}={text}"))
        ))
    };
    let scale = match param {
        "threads" | "t" | "numjobs" | "qd" | "iodepth" => Scale::Count,
        "bs" | "size" => Scale::Size,
        _ => {
            return Err(bad(
                "a LOW..HIGH range is for threads, qd, bs or size; list the values",
            ))
        }
    };
    let bound = |v: &str| match scale {
        Scale::Count => v
            .trim()
            .parse::<u64>()
            .map_err(|_| bad(&format!("'{}' is not a whole number", echo(v.trim())))),
        Scale::Size => model::units::parse_size(v.trim()).map_err(|e| bad(&echo(&e.to_string()))),
    };
    let (mut v, hi) = (bound(lo)?, bound(hi)?);
    if v == 0 {
        return Err(bad("a range starts at 1 or more"));
    }
    if v > hi {
        return Err(bad("the range runs from LOW up to HIGH"));
    }
    let label = |v: u64| match v {
        v if scale == Scale::Count => v.to_string(),
        v if v >= 1 << 20 && v % (1 << 20) == 0 => format!("{}M", v >> 20),
        v if v >= 1 << 10 && v % (1 << 10) == 0 => format!("{}K", v >> 10),
        v => v.to_string(),
    };
    let mut out = vec![label(v)];
    while let Some(next) = v.checked_mul(2).filter(|&n| n <= hi) {
        out.push(label(next));
        v = next;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::sweep_values;

    fn values(param: &str, text: &str) -> Vec<String> {
        sweep_values(param, text).unwrap()
    }

    #[test]
    fn counts_are_whole_numbers() {
        let threads = values("threads", "1..2048");
        assert_eq!(threads.len(), 12);
        assert_eq!(threads[..3], ["1", "2", "4"]);
        assert_eq!(threads[10..], ["1024", "2048"]);
        assert_eq!(values("qd", "3..40"), ["3", "6", "12", "24"]);
        assert_eq!(values("t", "1..1"), ["1"]);
        let e = sweep_values("qd", "1..1K").unwrap_err().0;
        assert_eq!(e, "--sweep qd=1..1K: '1K' is not a whole number");
    }

    #[test]
    fn sizes_take_units() {
        assert_eq!(
            values("bs", "4K..1M"),
            ["4K", "8K", "16K", "32K", "64K", "128K", "256K", "512K", "1M"]
        );
        assert_eq!(values("size", "1G..4G"), ["1024M", "2048M", "4096M"]);
        assert_eq!(values("bs", "512..2K"), ["512", "1K", "2K"]);
    }

    #[test]
    fn lists_pass_as_given() {
        assert_eq!(values("rwmix", "0, 50,100"), ["0", "50", "100"]);
    }

    #[test]
    fn empty_or_backward_ranges_are_refused() {
        for (param, text, says) in [
            ("bs", "0..8M", "--sweep bs=0..8M: a range starts at 1 or more"),
            ("threads", "0..4", "--sweep threads=0..4: a range starts at 1 or more"),
            ("threads", "5..1", "--sweep threads=5..1: the range runs from LOW up to HIGH"),
            ("bs", "8M..4K", "--sweep bs=8M..4K: the range runs from LOW up to HIGH"),
            (
                "rwmix",
                "10..90",
                "--sweep rwmix=10..90: a LOW..HIGH range is for threads, qd, bs or size; list the values",
            ),
        ] {
            assert_eq!(sweep_values(param, text).unwrap_err().0, says);
        }
    }
}
