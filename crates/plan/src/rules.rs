//! What an experienced admin rules out before comparing figures, and the warnings a kept
//! layout carries. Policies, not facts: each rule says why, the planner says how many layouts
//! each rule removed, and `--consider-all` keeps them all.

use crate::enumerate::Candidate;
use model::{VdevGroup, VdevType};
use serde::Serialize;

/// Widest raidz vdev proposed: a resilver reads every other disk of the vdev, a random block
/// needs all its data disks, and past a dozen disks the space per disk barely grows (at 128 KiB
/// records and ashift 12, raidz2-12 stores 83% of its raw space as data, raidz2-16 only 87%).
/// A policy, not a fact.
pub const MAX_RAIDZ_WIDTH: u32 = 12;

/// Largest disk, in bytes, on which single parity is proposed for a pool past
/// [`HOME_POOL_DISKS`]: 4 TB as sold (IDEMA: 4,000,787,030,016 B). A resilver of a larger
/// disk reads many terabytes with no redundancy left, and a latent sector error there loses
/// blocks. A policy, not a fact.
pub const SINGLE_PARITY_MAX_BYTES: u64 = 4_100_000_000_000;

/// Disks up to which a pool counts as a small home pool, where raidz1 stays a choice (with a
/// warning) whatever the disk size: the community's usual answer for 4-6 disks is raidz2 or
/// mirrors, raidz1 where space matters most. A policy, not a fact.
pub const HOME_POOL_DISKS: u32 = 6;

/// One rule that removes layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// dRAID without a distributed spare.
    DraidWithoutSpare,
    /// dRAID with fewer children than two redundancy groups and its spares.
    DraidTooNarrow,
    /// raidz wider than [`MAX_RAIDZ_WIDTH`].
    RaidzTooWide,
    /// Single parity (raidz1, draid1) on disks past [`SINGLE_PARITY_MAX_BYTES`].
    SingleParityOnLargeDisks,
}

impl Rule {
    /// Why the rule holds, in one clause.
    pub fn why(self) -> String {
        match self {
            Rule::DraidWithoutSpare => "dRAID without a distributed spare: a failed disk then waits for a new one and a full resilver, as raidz does, while small blocks still fill whole rows".into(),
            Rule::DraidTooNarrow => "dRAID with fewer children than two redundancy groups (data + parity) and its spares: its rebuild spreads over too few disks to beat raidz, which stores small blocks more compactly".into(),
            Rule::RaidzTooWide => format!("raidz wider than {MAX_RAIDZ_WIDTH} disks: a resilver reads every disk of the vdev and random reads stay one disk's, for little more space"),
            Rule::SingleParityOnLargeDisks => format!("single parity (raidz1, draid1) on disks over 4 TB in pools of more than {HOME_POOL_DISKS} disks: a resilver reads terabytes with no redundancy left"),
        }
    }
}

/// How many layouts one rule removed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuledOut {
    /// The rule.
    pub rule: Rule,
    /// Layouts it removed.
    pub layouts: usize,
    /// [`Rule::why`].
    pub why: String,
}

/// The first rule `candidate` breaks on disks of `disk_bytes`, `None` when it is kept.
pub fn broken_rule(candidate: &Candidate, disk_bytes: u64) -> Option<Rule> {
    let pool_disks = candidate.disks();
    candidate
        .layout
        .groups
        .iter()
        .find_map(|g| group_rule(g, disk_bytes, pool_disks))
}

fn group_rule(g: &VdevGroup, disk_bytes: u64, pool_disks: u32) -> Option<Rule> {
    let large = disk_bytes > SINGLE_PARITY_MAX_BYTES;
    match g.vtype {
        VdevType::Draid { spares: 0, .. } => Some(Rule::DraidWithoutSpare),
        VdevType::Draid {
            parity,
            data,
            spares,
        } if g.children < 2 * (data + parity) + spares => Some(Rule::DraidTooNarrow),
        VdevType::Draid { parity: 1, .. } if large => Some(Rule::SingleParityOnLargeDisks),
        VdevType::Raidz { .. } if g.children > MAX_RAIDZ_WIDTH => Some(Rule::RaidzTooWide),
        VdevType::Raidz { parity: 1 } if large && pool_disks > HOME_POOL_DISKS => {
            Some(Rule::SingleParityOnLargeDisks)
        }
        _ => None,
    }
}

/// Splits `all` into those kept and, per rule, how many it removed.
pub fn apply(all: Vec<Candidate>, disk_bytes: u64) -> (Vec<Candidate>, Vec<RuledOut>) {
    let mut counts: std::collections::BTreeMap<Rule, usize> = Default::default();
    let kept = all
        .into_iter()
        .filter(|c| match broken_rule(c, disk_bytes) {
            Some(rule) => {
                *counts.entry(rule).or_default() += 1;
                false
            }
            None => true,
        })
        .collect();
    let ruled_out = counts
        .into_iter()
        .map(|(rule, layouts)| RuledOut {
            rule,
            layouts,
            why: rule.why(),
        })
        .collect();
    (kept, ruled_out)
}

/// What a chosen layout costs that its row does not show, one sentence each: the layout's own
/// warnings, single parity on large disks, and for dRAID its spare and fixed row width (every
/// block fills whole rows of d data and p parity sectors, vdev_draid_asize).
pub fn caveats(candidate: &Candidate, disk_bytes: u64, ashift: u8) -> Vec<String> {
    let layout = &candidate.layout;
    let mut out = layout.warnings();
    for g in &layout.groups {
        match g.vtype {
            VdevType::Raidz { parity: 1 } | VdevType::Draid { parity: 1, .. }
                if disk_bytes > SINGLE_PARITY_MAX_BYTES =>
            {
                out.push(format!(
                    "{g}: single parity on {} disks: while a resilver runs nothing else protects the data, and a latent sector error met then loses the blocks it holds",
                    model::units::format_decimal(disk_bytes as f64)
                ));
            }
            VdevType::Draid {
                parity,
                data,
                spares,
            } => {
                if spares == 0 {
                    out.push(format!("{g} has no distributed spare: after a failure it waits for a new disk and resilvers onto it, as raidz does"));
                }
                let four_k = space::block_asize(g, ashift, 4096);
                out.push(format!(
                    "{g}: every block fills whole rows of {data} data and {parity} parity sectors of {}: a 4 KiB block takes {} ({:.0}x)",
                    model::units::format_bytes(1 << ashift),
                    model::units::format_bytes(four_k),
                    four_k as f64 / 4096.0
                ));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(layout: &str) -> Candidate {
        Candidate {
            layout: layout.parse().unwrap(),
            hot_spares: 0,
        }
    }

    const TB16: u64 = 16_000_900_661_248;
    const TB4: u64 = 4_000_787_030_016;

    #[test]
    fn each_rule_by_example() {
        let rule = |l: &str, bytes: u64| broken_rule(&candidate(l), bytes);
        assert_eq!(
            rule("draid2:8d:24c:0s", TB16),
            Some(Rule::DraidWithoutSpare)
        );
        // 2 x (8 + 2) + 1 = 21 children at least: 24 pass, 20 do not.
        assert_eq!(rule("draid2:8d:24c:1s", TB16), None);
        assert_eq!(rule("draid2:8d:20c:1s", TB16), Some(Rule::DraidTooNarrow));
        assert_eq!(
            rule("draid1:4d:24c:1s", TB16),
            Some(Rule::SingleParityOnLargeDisks)
        );
        assert_eq!(rule("draid1:4d:24c:1s", TB4), None);
        assert_eq!(rule("raidz2-12", TB16), None);
        assert_eq!(rule("raidz2-13", TB16), Some(Rule::RaidzTooWide));
        // raidz1 on 16 TB: kept on a home pool of up to 6 disks, out beyond.
        assert_eq!(rule("raidz1-4", TB16), None);
        assert_eq!(rule("raidz1-6", TB16), None);
        assert_eq!(
            rule("2x raidz1-4", TB16),
            Some(Rule::SingleParityOnLargeDisks)
        );
        assert_eq!(rule("2x raidz1-4", TB4), None);
        assert_eq!(rule("12x mirror-2", TB16), None);
    }

    #[test]
    fn a_kept_raidz1_on_large_disks_carries_its_warning() {
        let c = caveats(&candidate("raidz1-4"), TB16, 12);
        assert_eq!(c.len(), 1);
        assert!(
            c[0].starts_with("raidz1-4: single parity on 16.0 TB disks"),
            "{c:?}"
        );
        let c = caveats(&candidate("draid2:4d:24c:1s"), TB16, 12);
        assert_eq!(
            c,
            ["draid2:4d:24c:1s: every block fills whole rows of 4 data and 2 parity sectors of 4.00 KiB: a 4 KiB block takes 24.00 KiB (6x)"]
        );
        assert!(caveats(&candidate("2x mirror-2"), TB16, 12).is_empty());
    }
}
