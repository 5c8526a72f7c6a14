//! Choosing one layout, with a reason whose every number the reader can find in the table;
//! and, when nothing qualifies, the layouts that come closest.

use crate::candidate_figures::Evaluation;
use crate::needs::{format_probability, Metric, Need};
use crate::policy::{Rank, REPORT_TRIALS, SPACE_TIE, SPEED_FLOOR, SPEED_TIE};
use std::fmt;

/// The probability of losing the pool over the mission a recommendation stays under when
/// `--need` sets none: one pool in a thousand lost over its life. A policy, not a fact.
pub const DEFAULT_LOSS_TARGET: f64 = 0.001;

/// How many near misses an impossible plan names.
const CLOSEST_SHOWN: usize = 3;

/// The chosen evaluation (an index into the slice given), its layout and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Recommendation {
    /// Index of the pick in the evaluations given.
    pub index: usize,
    /// The pick's layout.
    pub layout: String,
    /// The ranking applied among the layouts under the loss target.
    pub rank: Rank,
    /// Why it was picked, one sentence.
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
    /// The layout.
    pub layout: String,
    /// Each need it misses, and by how much.
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
pub(crate) fn meets(e: &Evaluation, needs: &[Need]) -> bool {
    needs.iter().all(|n| n.is_met(e.metric(n.metric)))
}

/// The layouts closest to meeting the needs, nearest first: ranked by the factor of their
/// worst miss, then by the product of all their misses.
pub(crate) fn closest(evaluations: &[Evaluation], needs: &[Need]) -> Vec<NearMiss> {
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

/// Usable space, bytes, as a ranking weighs it.
fn space(e: &Evaluation) -> f64 {
    e.avail_bytes as f64
}

/// Random reads per second, as a ranking weighs them.
fn random(e: &Evaluation) -> f64 {
    e.random.iops
}

/// The most of `key` among `among` (0 for none).
fn most(evaluations: &[Evaluation], among: &[usize], key: fn(&Evaluation) -> f64) -> f64 {
    among
        .iter()
        .map(|&i| key(&evaluations[i]))
        .fold(0.0, f64::max)
}

/// Those of `among` with at least `share` of the most `key`.
fn near_best(
    evaluations: &[Evaluation],
    among: &[usize],
    key: fn(&Evaluation) -> f64,
    share: f64,
) -> Vec<usize> {
    let best = most(evaluations, among, key);
    among
        .iter()
        .copied()
        .filter(|&i| key(&evaluations[i]) >= share * best)
        .collect()
}

/// The leader of `among` by `first`, taking those within `tie` of the best as equal and
/// deciding among them by `then`, then by the lower loss.
fn leader(
    evaluations: &[Evaluation],
    among: &[usize],
    first: fn(&Evaluation) -> f64,
    tie: f64,
    then: fn(&Evaluation) -> f64,
) -> Option<usize> {
    near_best(evaluations, among, first, tie)
        .into_iter()
        .max_by(|&a, &b| {
            let (ea, eb) = (&evaluations[a], &evaluations[b]);
            then(ea)
                .total_cmp(&then(eb))
                .then(eb.metric(Metric::Loss).total_cmp(&ea.metric(Metric::Loss)))
        })
}

/// The layouts of `among` whose sequential reads and writes both reach [`SPEED_FLOOR`] of the
/// best (all of them when none does).
fn fast_enough(evaluations: &[Evaluation], among: &[usize]) -> Vec<usize> {
    let read = most(evaluations, among, |e| e.read.bytes_per_s);
    let write = most(evaluations, among, |e| e.write.bytes_per_s);
    let fast: Vec<usize> = among
        .iter()
        .copied()
        .filter(|&i| {
            let e = &evaluations[i];
            e.read.bytes_per_s >= SPEED_FLOOR * read && e.write.bytes_per_s >= SPEED_FLOOR * write
        })
        .collect();
    if fast.is_empty() {
        among.to_vec()
    } else {
        fast
    }
}

/// The best of `among` by `rank`.
fn pick(evaluations: &[Evaluation], among: &[usize], rank: Rank) -> Option<usize> {
    match rank {
        Rank::Usable => {
            let fast = fast_enough(evaluations, among);
            let roomy = near_best(evaluations, &fast, space, SPACE_TIE);
            leader(evaluations, &roomy, random, SPEED_TIE, space)
        }
        Rank::Space => leader(evaluations, among, space, 1.0, random),
        Rank::Iops => leader(evaluations, among, random, SPEED_TIE, space),
        Rank::Write => leader(
            evaluations,
            among,
            |e| e.write.bytes_per_s,
            SPEED_TIE,
            space,
        ),
    }
}

/// The best of `among` by `rank`, and the runner-up (the best of the others) as a clause
/// saying what the pick gives and costs against it.
fn best_by(evaluations: &[Evaluation], among: &[usize], rank: Rank) -> Option<(usize, String)> {
    let best = pick(evaluations, among, rank)?;
    let others: Vec<usize> = among.iter().copied().filter(|&i| i != best).collect();
    let runner_up = pick(evaluations, &others, rank)
        .map(|i| against(&evaluations[best], &evaluations[i]))
        .unwrap_or_default();
    Some((best, runner_up))
}

/// The pick against the runner-up, as a clause.
fn against(chosen: &Evaluation, other: &Evaluation) -> String {
    format!(
        "; against the runner-up {} ({}): {}",
        other.candidate.layout,
        figures(other),
        differences(chosen, other)
    )
}

/// "+12% usable space, -3% random reads, P(data loss) 0.01% against 0.1%": what `chosen`
/// gives and costs against `other`, each figure that differs by more than 1%.
fn differences(chosen: &Evaluation, other: &Evaluation) -> String {
    let pairs = [
        ("usable space", space(chosen), space(other)),
        (
            "sequential reads",
            chosen.read.bytes_per_s,
            other.read.bytes_per_s,
        ),
        (
            "sequential writes",
            chosen.write.bytes_per_s,
            other.write.bytes_per_s,
        ),
        ("random reads", random(chosen), random(other)),
    ];
    let mut parts: Vec<String> = pairs
        .iter()
        .filter(|(_, a, b)| *b > 0.0 && (a / b - 1.0).abs() > 0.01)
        .map(|(what, a, b)| format!("{:+.0}% {what}", (a / b - 1.0) * 100.0))
        .collect();
    if let (Some(a), Some(b)) = (chosen.data_loss(), other.data_loss()) {
        parts.push(format!(
            "P(data loss) {} against {}",
            Metric::Loss.format(a),
            Metric::Loss.format(b)
        ));
    }
    if parts.is_empty() {
        parts.push("the same figures".to_string());
    }
    parts.join(", ")
}

/// Where the user's own layout stands, in one sentence: against the loss target (under, at it,
/// over it) and the needs, and what the pick gives and costs against it.
pub(crate) fn standing(own: &Evaluation, pick: &Evaluation, needs: &[Need]) -> String {
    let (target, _, _) = target_words(needs);
    let safety = match own.data_loss() {
        None => "its loss odds unknown (the disk has no failure rate)".to_string(),
        Some(p) if p <= target => format!(
            "under the loss target ({} <= {})",
            Metric::Loss.format(p),
            format_probability(target)
        ),
        Some(p) if at_the_target(p, target) => format!(
            "at the loss target ({} against {}, within a {REPORT_TRIALS}-mission simulation's 95% interval)",
            Metric::Loss.format(p),
            format_probability(target)
        ),
        Some(p) => format!(
            "over the loss target ({} against {})",
            Metric::Loss.format(p),
            format_probability(target)
        ),
    };
    let needs_word = if meets(own, needs) {
        ""
    } else {
        ", short of the needs"
    };
    if own.candidate == pick.candidate {
        return format!("your layout, {safety}{needs_word}: the planner picks it too");
    }
    format!(
        "your layout, {safety}{needs_word}; changing to {} gives {}",
        pick.candidate.layout,
        differences(pick, own)
    )
}

/// What the ranking weighed for the pick, as a clause about the `among` layouts `which`.
fn ranked_by(among: usize, rank: Rank, which: &str) -> String {
    let of = layouts(among);
    match rank {
        Rank::Usable => format!(
            "the most usable space (--rank usable) of the {of} {which} that read and write at least {:.0}% as fast as the best, random reads deciding within {:.0}% of the most space",
            SPEED_FLOOR * 100.0,
            (1.0 - SPACE_TIE) * 100.0
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
    let why = ranked_by(among.len(), rank, &which);
    let reason = format!(
        "{why} (the disk has no failure rate: give --afr to rank safety); {}{runner_up}",
        figures(&evaluations[best]),
    );
    Some((best, reason))
}

/// The loss target the needs set, the words for the layouts ranked ("meeting the needs") and
/// for where the target comes from.
fn target_words(needs: &[Need]) -> (f64, &'static str, &'static str) {
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
    (target, meeting, default_target)
}

/// Among the evaluations (all meeting the needs), the best by `rank` of those whose data-loss
/// probability (pool or blocks) stays under the target (the `loss<=` need, else
/// [`DEFAULT_LOSS_TARGET`]). When none stays under it, the safest; when no loss probability is
/// known (the disk has no failure rate), the best by `rank` of those that survive a disk
/// failure. `None` only for an empty slice.
pub(crate) fn recommend(
    evaluations: &[Evaluation],
    needs: &[Need],
    years: f64,
    rank: Rank,
) -> Option<Recommendation> {
    let (target, meeting, default_target) = target_words(needs);
    let loss = |i: usize| evaluations[i].data_loss();
    let all: Vec<usize> = (0..evaluations.len()).collect();
    let (index, reason) = if all.iter().all(|&i| loss(i).is_none()) {
        without_failure_rate(evaluations, rank, meeting)?
    } else {
        let safe: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| loss(i).is_some_and(|p| p <= target || at_the_target(p, target)))
            .collect();
        let loss_words = format!("P(data loss over {years} years)");
        if let Some((best, runner_up)) = best_by(evaluations, &safe, rank) {
            let e = &evaluations[best];
            let which = format!(
                "{meeting} with {loss_words} <= {}{default_target}",
                format_probability(target)
            );
            let why = ranked_by(safe.len(), rank, &which);
            let reason = format!(
                "{why}; its own P(data loss) {}; {}{runner_up}",
                Metric::Loss.format(e.metric(Metric::Loss)),
                figures(e),
            );
            (best, reason)
        } else {
            let safest = safest(evaluations)?;
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
    let caveats = evaluations[index]
        .data_loss()
        .and_then(|p| at_the_target_caveat(p, target))
        .into_iter()
        .collect();
    Some(Recommendation {
        index,
        layout: evaluations[index].candidate.layout.to_string(),
        rank,
        reason,
        caveats,
    })
}

/// The safest of the evaluations (the lowest P(data loss); ties: the more space).
fn safest(evaluations: &[Evaluation]) -> Option<usize> {
    (0..evaluations.len()).min_by(|&a, &b| {
        evaluations[a]
            .metric(Metric::Loss)
            .total_cmp(&evaluations[b].metric(Metric::Loss))
            .then(evaluations[b].avail_bytes.cmp(&evaluations[a].avail_bytes))
    })
}

/// The caveat of a pick whose P(data loss) `p` is at the target, not under it.
fn at_the_target_caveat(p: f64, target: f64) -> Option<String> {
    at_the_target(p, target).then(|| {
        format!(
            "at the target: its P(data loss) {} is over {} by less than the 95% interval of a {REPORT_TRIALS}-mission simulation, so kept",
            Metric::Loss.format(p),
            format_probability(target)
        )
    })
}

/// Whether a loss probability `p` over the target is still at it: the target lies inside the
/// 95% interval a simulation of [`REPORT_TRIALS`] missions gives around `p` (normal
/// approximation, 1.96 standard errors), so no check zpoolsim runs could tell them apart and
/// dropping the layout would turn on noise.
pub fn at_the_target(p: f64, target: f64) -> bool {
    let half_width = 1.96 * (p * (1.0 - p) / REPORT_TRIALS as f64).sqrt();
    p > target && p - half_width <= target
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
            "the most usable space (--rank space) of the 3 layouts considered with P(data loss over 5 years) <= 1.0e-1% (no needs given; the default loss target); its own P(data loss) 7.5e-2%; 47.0 TB usable, reads 1.2 GB/s, writes 600.0 MB/s, 100/s random reads; against the runner-up 2x mirror-2 (32.0 TB usable, reads 800.0 MB/s, writes 400.0 MB/s, 100/s random reads): +47% usable space, +50% sequential reads, +50% sequential writes, P(data loss) 7.5e-2% against 1.5e-2%"
        );
        let strict = parse_needs_ok("loss<=0.005%");
        let r = recommend(&set(), &strict, 5.0, Rank::Space).unwrap();
        assert_eq!(r.index, 3);
        assert!(r.reason.starts_with("the most usable space (--rank space) of the 1 layout considered with P(data loss over 5 years) <= 5.0e-3%; its own"), "{}", r.reason);
        let read = parse_needs_ok("read>=100MB/s");
        let r = recommend(&set(), &read, 5.0, Rank::Space).unwrap();
        assert!(r.reason.starts_with("the most usable space (--rank space) of the 3 layouts meeting the needs with P(data loss over 5 years) <= 1.0e-1% (the default loss target); its own"), "{}", r.reason);
    }

    #[test]
    fn usable_is_space_over_a_speed_floor_with_random_reads_breaking_ties() {
        // Under the target: raidz1-4 (47 TB, 100/s, 600 MB/s), 2x mirror-2 (32 TB, 250/s,
        // 400 MB/s), raidz2-4 (31 TB, 100/s, 400 MB/s): only raidz1-4 is within 5% of the most
        // space.
        let mut set = set();
        set[2].random.iops = 250.0;
        let r = recommend(&set, &[], 5.0, Rank::Usable).unwrap();
        assert_eq!(r.layout, "raidz1-4");
        assert_eq!(
            r.reason,
            "the most usable space (--rank usable) of the 3 layouts considered with P(data loss over 5 years) <= 1.0e-1% (no needs given; the default loss target) that read and write at least 50% as fast as the best, random reads deciding within 5% of the most space; its own P(data loss) 7.5e-2%; 47.0 TB usable, reads 1.2 GB/s, writes 600.0 MB/s, 100/s random reads; against the runner-up 2x mirror-2 (32.0 TB usable, reads 800.0 MB/s, writes 400.0 MB/s, 250/s random reads): +47% usable space, +50% sequential reads, +50% sequential writes, -60% random reads, P(data loss) 7.5e-2% against 1.5e-2%"
        );
        // 46 TB is within 5% of 47 TB: 150 random reads beat 100, 95 tie with it.
        set[3].avail_bytes = 46_000_000_000_000;
        set[3].random.iops = 150.0;
        assert_eq!(
            recommend(&set, &[], 5.0, Rank::Usable).unwrap().layout,
            "raidz2-4"
        );
        set[3].random.iops = 95.0;
        assert_eq!(
            recommend(&set, &[], 5.0, Rank::Usable).unwrap().layout,
            "raidz1-4"
        );
        // Writes of 150 MB/s (reads 300 MB/s) fall under half the best: the space is not worth it.
        set[3].avail_bytes = 31_000_000_000_000;
        set[1].write.bytes_per_s = 150e6;
        set[1].read.bytes_per_s = 300e6;
        assert_eq!(
            recommend(&set, &[], 5.0, Rank::Usable).unwrap().layout,
            "2x mirror-2"
        );
        assert_eq!(
            recommend(&set, &[], 5.0, Rank::Iops).unwrap().layout,
            "2x mirror-2"
        );
        assert_eq!(
            recommend(&set, &[], 5.0, Rank::Write).unwrap().layout,
            "2x mirror-2"
        );
        assert_eq!("iops".parse::<Rank>(), Ok(Rank::Iops));
        assert!("fast"
            .parse::<Rank>()
            .unwrap_err()
            .contains("usable, space, iops or write"));
    }

    #[test]
    fn a_loss_within_the_simulations_interval_is_at_the_target() {
        // 0.11% over 100,000 missions: standard error sqrt(0.0011 x 0.9989 / 1e5) = 0.0105%,
        // 1.96 of them 0.0206%: 0.11% - 0.0206% = 0.089% <= 0.1%; 0.125% - 0.0219% > 0.1%.
        assert!(at_the_target(0.0011, 0.001));
        assert!(!at_the_target(0.00125, 0.001));
        assert!(!at_the_target(0.0009, 0.001));
        let mut set = set();
        set.truncate(2);
        set[1].closed_form = Some(odds(0.0011, 0.0));
        let r = recommend(&set, &[], 5.0, Rank::Space).unwrap();
        assert_eq!(r.layout, "raidz1-4");
        assert_eq!(r.caveats, ["at the target: its P(data loss) 1.1e-1% is over 1.0e-1% by less than the 95% interval of a 100000-mission simulation, so kept"]);
    }

    #[test]
    fn safest_when_none_is_safe_enough() {
        let r = recommend(&set()[..1], &[], 5.0, Rank::Space).unwrap();
        assert_eq!(r.index, 0);
        assert!(r.reason.starts_with("no layout considered keeps P(data loss over 5 years) <= 1.0e-1% (no needs given; the default loss target); this is the safest"), "{}", r.reason);
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
