//! Choosing one layout, with a reason whose every number the reader can find in the table;
//! and, when nothing qualifies, the layouts that come closest.

use crate::candidate_figures::Evaluation;
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
    /// The ranking applied among the layouts under the loss target.
    pub rank: Rank,
    pub reason: String,
    /// What the pick costs that its row does not show, one sentence each.
    pub caveats: Vec<String>,
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

/// How the planner weighs the layouts that stay under the loss target (`--rank`). A policy,
/// not a fact: the default weighs what an admin weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    /// Usable space, random reads and sequential writes together: the geometric mean of each
    /// as a share of the best of the layouts ranked, so that no one figure buys the pick.
    #[default]
    Balanced,
    /// The most usable space.
    Space,
    /// The most random reads per second.
    Iops,
    /// The fastest sequential writes.
    Write,
}

impl Rank {
    pub const WORDS: &'static str = "balanced, space, iops or write";

    fn word(self) -> &'static str {
        match self {
            Rank::Balanced => "balanced",
            Rank::Space => "space",
            Rank::Iops => "iops",
            Rank::Write => "write",
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl std::str::FromStr for Rank {
    type Err = String;
    fn from_str(s: &str) -> Result<Rank, String> {
        [Rank::Balanced, Rank::Space, Rank::Iops, Rank::Write]
            .into_iter()
            .find(|r| r.word() == s.trim())
            .ok_or_else(|| {
                format!(
                    "unknown ranking '{}': {}",
                    model::input::echo(s),
                    Rank::WORDS
                )
            })
    }
}

/// The three figures a ranking weighs, each as a share of the best among `among`.
fn shares(evaluations: &[Evaluation], among: &[usize], i: usize) -> [f64; 3] {
    let figures = |e: &Evaluation| [e.avail_bytes as f64, e.random.iops, e.write.bytes_per_s];
    let best = among.iter().fold([0.0f64; 3], |acc, &j| {
        let f = figures(&evaluations[j]);
        [acc[0].max(f[0]), acc[1].max(f[1]), acc[2].max(f[2])]
    });
    let f = figures(&evaluations[i]);
    [0, 1, 2].map(|k| if best[k] > 0.0 { f[k] / best[k] } else { 1.0 })
}

/// The score `rank` gives evaluation `i` among `among` (higher is better).
fn score(evaluations: &[Evaluation], among: &[usize], i: usize, rank: Rank) -> f64 {
    let [space, iops, write] = shares(evaluations, among, i);
    match rank {
        Rank::Balanced => (space * iops * write).cbrt(),
        Rank::Space => space,
        Rank::Iops => iops,
        Rank::Write => write,
    }
}

/// The best of `among` by `rank` (ties: the safer, then the more space), and the runner-up as
/// a clause.
fn best_by(evaluations: &[Evaluation], among: &[usize], rank: Rank) -> Option<(usize, String)> {
    let order = |a: &usize, b: &usize| {
        let (ea, eb) = (&evaluations[*a], &evaluations[*b]);
        score(evaluations, among, *a, rank)
            .total_cmp(&score(evaluations, among, *b, rank))
            .then(eb.metric(Metric::Loss).total_cmp(&ea.metric(Metric::Loss)))
            .then(ea.avail_bytes.cmp(&eb.avail_bytes))
    };
    let best = among.iter().copied().max_by(order)?;
    let runner_up = among
        .iter()
        .copied()
        .filter(|&i| i != best)
        .max_by(order)
        .map(|i| {
            let r = &evaluations[i];
            format!("; next: {} ({})", r.candidate.layout, figures(r))
        })
        .unwrap_or_default();
    Some((best, runner_up))
}

/// What the ranking weighed for the pick, as a clause about the `among` layouts `which`.
fn ranked_by(
    evaluations: &[Evaluation],
    among: &[usize],
    i: usize,
    rank: Rank,
    which: &str,
) -> String {
    let [space, iops, write] = shares(evaluations, among, i);
    let of = layouts(among.len());
    match rank {
        Rank::Balanced => format!(
            "the best balance (--rank balanced) of usable space, random reads and writes among the {of} {which}: {:.0}%, {:.0}% and {:.0}% of the best of each, geometric mean {:.0}%",
            space * 100.0,
            iops * 100.0,
            write * 100.0,
            (space * iops * write).cbrt() * 100.0
        ),
        Rank::Space => format!("the most usable space (--rank space) of the {of} {which}"),
        Rank::Iops => format!("the most random reads (--rank iops) of the {of} {which}"),
        Rank::Write => format!("the fastest writes (--rank write) of the {of} {which}"),
    }
}

/// The best by `rank` of the layouts that survive a disk failure (all when none does), when
/// the disk has no failure rate; `meeting` says which layouts these are.
fn without_failure_rate(
    evaluations: &[Evaluation],
    rank: Rank,
    meeting: &str,
) -> Option<(usize, String)> {
    let all: Vec<usize> = (0..evaluations.len()).collect();
    let redundant: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| evaluations[i].candidate.layout.redundancy() >= 1)
        .collect();
    let (among, which) = if redundant.is_empty() {
        (&all, meeting.to_string())
    } else {
        (&redundant, format!("{meeting} that survive a disk failure"))
    };
    let (best, runner_up) = best_by(evaluations, among, rank)?;
    let why = ranked_by(evaluations, among, best, rank, &which);
    let reason = format!(
        "{why} (the disk has no failure rate: give --afr to rank safety); {}{runner_up}",
        figures(&evaluations[best]),
    );
    Some((best, reason))
}

/// Among the evaluations (all meeting the needs), the best by `rank` of those whose data-loss
/// probability (pool or blocks) stays under the target (the `loss<=` need, else
/// [`DEFAULT_LOSS_TARGET`]). When none stays under it, the safest; when no loss probability is
/// known (the disk has no failure rate), the best by `rank` of those that survive a disk
/// failure. `None` only for an empty slice.
pub fn recommend(
    evaluations: &[Evaluation],
    needs: &[Need],
    years: f64,
    rank: Rank,
) -> Option<Recommendation> {
    let loss_need = needs.iter().find(|n| n.metric == Metric::Loss);
    let target = loss_need.map_or(DEFAULT_LOSS_TARGET, |n| n.bound);
    let given = needs.iter().any(|n| n.metric != Metric::Loss);
    let meeting = if given {
        "meeting the needs"
    } else {
        "considered"
    };
    let default_target = match (given, loss_need.is_some()) {
        (_, true) => "",
        (true, false) => " (the default loss target)",
        (false, false) => " (no needs given; the default loss target)",
    };
    let loss = |i: usize| evaluations[i].data_loss();
    let all: Vec<usize> = (0..evaluations.len()).collect();
    let (index, reason) = if all.iter().all(|&i| loss(i).is_none()) {
        without_failure_rate(evaluations, rank, meeting)?
    } else {
        let safe: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| loss(i).is_some_and(|p| p <= target))
            .collect();
        let loss_words = format!("P(data loss over {years} years)");
        if let Some((best, runner_up)) = best_by(evaluations, &safe, rank) {
            let e = &evaluations[best];
            let which = format!(
                "{meeting} with {loss_words} <= {}{default_target}",
                format_probability(target)
            );
            let why = ranked_by(evaluations, &safe, best, rank, &which);
            let reason = format!(
                "{why}; its own P(data loss) {}; {}{runner_up}",
                Metric::Loss.format(e.metric(Metric::Loss)),
                figures(e),
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
                "no layout {meeting} keeps {loss_words} <= {}{default_target}; this is the safest at {}; {}",
                format_probability(target),
                Metric::Loss.format(e.metric(Metric::Loss)),
                figures(e),
            );
            (safest, reason)
        }
    };
    Some(Recommendation {
        index,
        layout: evaluations[index].candidate.layout.to_string(),
        rank,
        reason,
        caveats: Vec::new(),
    })
}

/// "1 layout", "3 layouts".
fn layouts(n: usize) -> String {
    format!("{n} layout{}", if n == 1 { "" } else { "s" })
}

/// The four figures needs bound, as a clause.
fn figures(e: &Evaluation) -> String {
    format!(
        "{} usable, reads {}, writes {}, {} random reads",
        Metric::Avail.format(e.avail_bytes as f64),
        Metric::Read.format(e.read.bytes_per_s),
        Metric::Write.format(e.write.bytes_per_s),
        Metric::Iops.format(e.random.iops)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidate_figures::WorkloadFigures;
    use crate::enumerate::Candidate;

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
            loss_unknown: None,
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
        let r = recommend(&set(), &[], 5.0, Rank::Space).unwrap();
        assert_eq!(r.index, 1);
        assert_eq!(
            r.reason,
            "the most usable space (--rank space) of the 3 layouts considered with P(data loss over 5 years) <= 0.10% (no needs given; the default loss target); its own P(data loss) 0.075%; 47.0 TB usable, reads 1.2 GB/s, writes 600.0 MB/s, 100/s random reads; next: 2x mirror-2 (32.0 TB usable, reads 800.0 MB/s, writes 400.0 MB/s, 100/s random reads)"
        );
        let strict = parse_needs_ok("loss<=0.005%");
        let r = recommend(&set(), &strict, 5.0, Rank::Space).unwrap();
        assert_eq!(r.index, 3);
        assert!(r.reason.starts_with("the most usable space (--rank space) of the 1 layout considered with P(data loss over 5 years) <= 0.0050%; its own"), "{}", r.reason);
        let read = parse_needs_ok("read>=100MB/s");
        let r = recommend(&set(), &read, 5.0, Rank::Space).unwrap();
        assert!(r.reason.starts_with("the most usable space (--rank space) of the 3 layouts meeting the needs with P(data loss over 5 years) <= 0.10% (the default loss target); its own"), "{}", r.reason);
    }

    #[test]
    fn balanced_weighs_space_iops_and_writes() {
        // Under the target: raidz1-4 (47 TB, 100/s, 600 MB/s), 2x mirror-2 (32 TB, 250/s,
        // 400 MB/s), raidz2-4 (31 TB, 100/s, 400 MB/s). Shares of the best: raidz1-4
        // (1, 0.4, 1): 0.737; the mirrors (0.681, 1, 0.667): 0.769; raidz2-4 lower.
        let mut set = set();
        set[2].random.iops = 250.0;
        let r = recommend(&set, &[], 5.0, Rank::Balanced).unwrap();
        assert_eq!(r.layout, "2x mirror-2");
        assert!(
            r.reason.starts_with("the best balance (--rank balanced) of usable space, random reads and writes among the 3 layouts considered with P(data loss over 5 years) <= 0.10% (no needs given; the default loss target): 68%, 100% and 67% of the best of each, geometric mean 77%"),
            "{}",
            r.reason
        );
        assert_eq!(
            recommend(&set, &[], 5.0, Rank::Iops).unwrap().layout,
            "2x mirror-2"
        );
        assert_eq!(
            recommend(&set, &[], 5.0, Rank::Write).unwrap().layout,
            "raidz1-4"
        );
        assert_eq!("iops".parse::<Rank>(), Ok(Rank::Iops));
        assert!("fast"
            .parse::<Rank>()
            .unwrap_err()
            .contains("balanced, space, iops or write"));
    }

    #[test]
    fn safest_when_none_is_safe_enough() {
        let r = recommend(&set()[..1], &[], 5.0, Rank::Space).unwrap();
        assert_eq!(r.index, 0);
        assert!(r.reason.starts_with("no layout considered keeps P(data loss over 5 years) <= 0.10% (no needs given; the default loss target); this is the safest"), "{}", r.reason);
        assert!(recommend(&[], &[], 5.0, Rank::Space).is_none());
        let unknown: Vec<Evaluation> = set()
            .into_iter()
            .map(|e| Evaluation {
                closed_form: None,
                ..e
            })
            .collect();
        // Without failure rates: the most space among the redundant layouts, not the stripe.
        let r = recommend(&unknown, &[], 5.0, Rank::Space).unwrap();
        assert_eq!(r.index, 1);
        assert!(r.reason.starts_with("the most usable space (--rank space) of the 3 layouts considered that survive a disk failure"), "{}", r.reason);
        let r = recommend(&unknown[..1], &[], 5.0, Rank::Space).unwrap();
        assert_eq!(r.index, 0);
        assert!(
            r.reason.contains("give --afr to rank safety"),
            "{}",
            r.reason
        );
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
