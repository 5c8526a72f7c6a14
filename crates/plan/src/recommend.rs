//! Choosing one layout, with a reason whose every number the reader can find in the table;
//! and, when nothing qualifies, the layouts that come closest.

use crate::evaluation::Evaluation;
use crate::needs::{format_probability, Metric, Need};
use std::fmt;

/// The probability of losing the pool over the mission a recommendation stays under when
/// `--need` sets none: one pool in a thousand lost over its life. A policy, not a fact.
pub const DEFAULT_LOSS_TARGET: f64 = 0.001;

/// How many near misses an impossible plan names.
const CLOSEST_SHOWN: usize = 3;

/// The chosen evaluation (an index into the slice given), its layout and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Recommendation {
    pub index: usize,
    pub layout: String,
    pub reason: String,
}

/// One need a layout misses, and the value it has.
#[derive(Debug, Clone, PartialEq)]
pub struct Miss {
    pub need: Need,
    pub value: f64,
}

/// A layout that misses some needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NearMiss {
    pub layout: String,
    pub misses: Vec<Miss>,
}

impl fmt::Display for NearMiss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (", self.layout)?;
        for (i, m) in self.misses.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let metric = m.need.metric;
            let word = if metric.higher_is_better() {
                "short"
            } else {
                "over"
            };
            write!(
                f,
                "{} {}: {:.1}x {word}",
                metric.word(),
                metric.format(m.value),
                m.need.miss_factor(m.value)
            )?;
        }
        f.write_str(")")
    }
}

/// Whether an evaluation meets every need.
pub fn meets(e: &Evaluation, needs: &[Need]) -> bool {
    needs.iter().all(|n| n.is_met(e.metric(n.metric)))
}

/// The layouts closest to meeting the needs, nearest first: ranked by the factor of their
/// worst miss, then by the product of all their misses.
pub fn closest(evaluations: &[Evaluation], needs: &[Need]) -> Vec<NearMiss> {
    let mut ranked: Vec<(f64, f64, NearMiss)> = evaluations
        .iter()
        .map(|e| {
            let misses: Vec<Miss> = needs
                .iter()
                .map(|&need| Miss {
                    need,
                    value: e.metric(need.metric),
                })
                .filter(|m| !m.need.is_met(m.value))
                .collect();
            let factors = misses.iter().map(|m| m.need.miss_factor(m.value));
            let worst = factors.clone().fold(1.0, f64::max);
            let product: f64 = factors.product();
            let layout = e.candidate.layout.to_string();
            (worst, product, NearMiss { layout, misses })
        })
        .collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    ranked
        .into_iter()
        .take(CLOSEST_SHOWN)
        .map(|(_, _, m)| m)
        .collect()
}

/// Among the evaluations (all meeting the needs), the one with the most usable space whose
/// data-loss probability (pool or blocks) stays under the target (the `loss<=` need, else
/// [`DEFAULT_LOSS_TARGET`]); ties go to the safer. When none stays under it, the safest; when
/// no loss probability is known (the disk has no failure rate), the most usable space.
/// `None` only for an empty slice.
pub fn recommend(evaluations: &[Evaluation], needs: &[Need], years: f64) -> Option<Recommendation> {
    let target = needs
        .iter()
        .find(|n| n.metric == Metric::Loss)
        .map_or(DEFAULT_LOSS_TARGET, |n| n.bound);
    let loss = |i: usize| evaluations[i].data_loss();
    let by_space = |a: &usize, b: &usize| {
        let (ea, eb) = (&evaluations[*a], &evaluations[*b]);
        ea.avail_bytes
            .cmp(&eb.avail_bytes)
            .then(eb.metric(Metric::Loss).total_cmp(&ea.metric(Metric::Loss)))
    };
    let most_space = |among: &[usize]| -> Option<(usize, String)> {
        let best = among.iter().copied().max_by(by_space)?;
        let runner_up = among
            .iter()
            .copied()
            .filter(|&i| i != best)
            .max_by(by_space)
            .map(|i| {
                let r = &evaluations[i];
                format!(
                    "; next: {} with {}",
                    r.candidate.layout,
                    Metric::Avail.format(r.avail_bytes as f64)
                )
            })
            .unwrap_or_default();
        Some((best, runner_up))
    };
    let all: Vec<usize> = (0..evaluations.len()).collect();
    let loss_words = format!("P(data loss over {years} years)");
    let (index, reason) = if all.iter().all(|&i| loss(i).is_none()) {
        let redundant: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| evaluations[i].candidate.layout.redundancy() >= 1)
            .collect();
        let (among, which) = if redundant.is_empty() {
            (&all, "")
        } else {
            (&redundant, " that survive a disk failure")
        };
        let (best, runner_up) = most_space(among)?;
        let e = &evaluations[best];
        let reason = format!(
            "the most usable space, {}, of the {} meeting the needs{which} (the disk has no failure rate in the catalog: safety is not ranked further); {}{runner_up}",
            Metric::Avail.format(e.avail_bytes as f64),
            layouts(among.len()),
            speeds(e),
        );
        (best, reason)
    } else {
        let safe: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| loss(i).is_some_and(|p| p <= target))
            .collect();
        if let Some((best, runner_up)) = most_space(&safe) {
            let e = &evaluations[best];
            let reason = format!(
                "the most usable space, {}, of the {} meeting the needs with {loss_words} <= {} (its own {}); {}{runner_up}",
                Metric::Avail.format(e.avail_bytes as f64),
                layouts(safe.len()),
                format_probability(target),
                Metric::Loss.format(e.metric(Metric::Loss)),
                speeds(e),
            );
            (best, reason)
        } else {
            let safest = all.iter().copied().min_by(|&a, &b| {
                evaluations[a]
                    .metric(Metric::Loss)
                    .total_cmp(&evaluations[b].metric(Metric::Loss))
                    .then(evaluations[b].avail_bytes.cmp(&evaluations[a].avail_bytes))
            })?;
            let e = &evaluations[safest];
            let reason = format!(
                "no layout meeting the needs keeps {loss_words} <= {}; this is the safest at {}, with {}; {}",
                format_probability(target),
                Metric::Loss.format(e.metric(Metric::Loss)),
                Metric::Avail.format(e.avail_bytes as f64),
                speeds(e),
            );
            (safest, reason)
        }
    };
    Some(Recommendation {
        index,
        layout: evaluations[index].candidate.layout.to_string(),
        reason,
    })
}

/// What a recommended dRAID costs that the table does not show: no distributed spare (a
/// failure then waits for a new disk and a full resilver, as raidz does), and its fixed stripe
/// width: every block fills whole rows of d data and p parity sectors (vdev_draid_asize), so a
/// 4 KiB block (small files, metadata) takes d + p sectors.
pub fn draid_caveats(layout: &model::Layout, ashift: u8) -> String {
    let mut out = String::new();
    for g in &layout.groups {
        let model::VdevType::Draid {
            parity,
            data,
            spares,
        } = g.vtype
        else {
            continue;
        };
        if spares == 0 {
            out += &format!(
                "; {g} has no distributed spare: after a failure it waits for a new disk and resilvers onto it, as raidz does"
            );
        }
        let four_k = space::block_asize(g, ashift, 4096);
        out += &format!(
            "; on {g} every block fills whole rows of {data} data and {parity} parity sectors of {}: a 4 KiB block takes {} ({:.0}x)",
            model::units::format_bytes(1 << ashift),
            model::units::format_bytes(four_k),
            four_k as f64 / 4096.0
        );
    }
    out
}

/// "1 layout", "3 layouts".
fn layouts(n: usize) -> String {
    format!("{n} layout{}", if n == 1 { "" } else { "s" })
}

/// The three figures needs bound, as a clause.
fn speeds(e: &Evaluation) -> String {
    format!(
        "reads {}, writes {}, {} random reads",
        Metric::Read.format(e.read.bytes_per_s),
        Metric::Write.format(e.write.bytes_per_s),
        Metric::Iops.format(e.random.iops)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate::Candidate;
    use crate::evaluation::WorkloadFigures;

    fn odds(pool: f64, block: f64) -> reliability::Odds {
        reliability::Odds {
            pool_loss: pool,
            block_loss: block,
            data_loss: 1.0 - (1.0 - pool) * (1.0 - block),
        }
    }

    fn figures(bytes_per_s: f64, iops: f64) -> WorkloadFigures {
        WorkloadFigures {
            workload: String::new(),
            bytes_per_s,
            iops,
            bottleneck: String::new(),
        }
    }

    fn eval(layout: &str, avail_tb: f64, write_mb: f64, loss: Option<f64>) -> Evaluation {
        Evaluation {
            candidate: Candidate {
                layout: layout.parse().unwrap(),
                hot_spares: 0,
            },
            size_bytes: 0,
            avail_bytes: (avail_tb * 1e12) as u64,
            read: figures(2.0 * write_mb * 1e6, 0.0),
            write: figures(write_mb * 1e6, 0.0),
            random: figures(0.0, 100.0),
            extra: vec![],
            degraded_hours: 10.0,
            closed_form: loss.map(|p| odds(p, p / 2.0)),
            usd_per_usable_tb: None,
        }
    }

    fn set() -> Vec<Evaluation> {
        vec![
            eval("stripe-4", 64.0, 800.0, Some(0.5)),
            eval("raidz1-4", 47.0, 600.0, Some(0.0005)),
            eval("2x mirror-2", 32.0, 400.0, Some(0.0001)),
            eval("raidz2-4", 31.0, 400.0, Some(0.000001)),
        ]
    }

    #[test]
    fn most_space_under_the_loss_target() {
        let r = recommend(&set(), &[], 5.0).unwrap();
        assert_eq!(r.index, 1);
        assert_eq!(
            r.reason,
            "the most usable space, 47.0 TB, of the 3 layouts meeting the needs with P(data loss over 5 years) <= 0.10% (its own 0.075%); reads 1.2 GB/s, writes 600.0 MB/s, 100/s random reads; next: 2x mirror-2 with 32.0 TB"
        );
        let strict = parse_needs_ok("loss<=0.005%");
        assert_eq!(recommend(&set(), &strict, 5.0).unwrap().index, 3);
    }

    #[test]
    fn safest_when_none_is_safe_enough() {
        let r = recommend(&set()[..1], &[], 5.0).unwrap();
        assert_eq!(r.index, 0);
        assert!(r.reason.starts_with("no layout meeting the needs keeps"));
        assert!(recommend(&[], &[], 5.0).is_none());
        let unknown: Vec<Evaluation> = set()
            .into_iter()
            .map(|e| Evaluation {
                closed_form: None,
                ..e
            })
            .collect();
        // Without failure rates: the most space among the redundant layouts, not the stripe.
        let r = recommend(&unknown, &[], 5.0).unwrap();
        assert_eq!(r.index, 1);
        assert!(r.reason.starts_with("the most usable space, 47.0 TB, of the 3 layouts meeting the needs that survive a disk failure"), "{}", r.reason);
        let r = recommend(&unknown[..1], &[], 5.0).unwrap();
        assert_eq!(r.index, 0);
        assert!(r.reason.contains("safety is not ranked"), "{}", r.reason);
    }

    #[test]
    fn closest_ranks_by_worst_miss() {
        let needs = parse_needs_ok("avail>=1PB,write>=700MB/s");
        let near = closest(&set(), &needs);
        let text: Vec<String> = near.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            text,
            [
                "stripe-4 (avail 64.0 TB: 15.6x short)",
                "raidz1-4 (avail 47.0 TB: 21.3x short, write 600.0 MB/s: 1.2x short)",
                "2x mirror-2 (avail 32.0 TB: 31.2x short, write 400.0 MB/s: 1.8x short)",
            ]
        );
        assert!(!meets(&set()[0], &needs));
    }

    fn parse_needs_ok(text: &str) -> Vec<Need> {
        crate::needs::parse_needs(text).unwrap()
    }
}
