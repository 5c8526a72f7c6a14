//! Every sensible homogeneous layout for a number of identical disks.
//!
//! The rules, so that a count can be checked by hand:
//! - `hot_spares` disks are set aside first; the other `M` disks build the pool.
//! - stripe-M; `K`x mirror-2 and mirror-3; `K`x raidz{1,2,3}-W for W from p+2 (a raidz of p+1
//!   children is a slower mirror: `Layout::warnings`) up to p + [`MAX_DATA_COLUMNS`].
//!   K is always floor(M / W): a planner that leaves whole vdevs' worth of disks idle
//!   proposes nothing a person would build.
//! - dRAID: one vdev over all M disks (several equal ones past the 255-child limit), parity
//!   1-3, data 2..=[`MAX_DATA_COLUMNS`] (one data column stores whole copies, which
//!   mirrors already cover), 0..=[`MAX_DISTRIBUTED_SPARES`] distributed spares, with
//!   d + p + s <= children.
//! - Disks left over (M mod W) become extra hot spares: an idle disk is worth more as a spare.
//! - Layouts that survive fewer than `min_redundancy` leaf failures are dropped.

use model::layout::DRAID_MAX_CHILDREN;
use model::{Layout, VdevGroup, VdevType};

/// Widest data part of a raidz or dRAID group the planner proposes. A 128 KiB record (the
/// default recordsize, zfs_prop.c) is 32 sectors at ashift 12; with 16 data columns it already
/// puts 2 sectors in each, and by the raidz asize formula (docs/zfs-internals.md §1,
/// vdev_raidz_psize_to_asize) every width from 16 to 31 data columns needs the same 2 parity
/// rows per record: the space `zfs list` reports per disk stops growing while a wider vdev
/// resilvers more disks at once and still gives one disk's random IOPS. A policy, not a fact.
pub(crate) const MAX_DATA_COLUMNS: u32 = 16;

/// Most distributed spares proposed per dRAID vdev: one per failure the widest parity
/// (raidz3/draid3) survives. A policy, not a fact.
pub(crate) const MAX_DISTRIBUTED_SPARES: u32 = 3;

/// One layout to evaluate: the pool's vdevs and the hot spares beside them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Candidate {
    /// The pool's vdevs.
    pub layout: Layout,
    /// Hot spares: those asked for plus the disks the layout leaves over.
    pub hot_spares: u32,
}

impl Candidate {
    /// Disks the candidate occupies: every disk it was enumerated for.
    pub fn disks(&self) -> u32 {
        self.layout.leaves() + self.hot_spares
    }
}

/// Every candidate for `disks` disks, `hot_spares` of them set aside, surviving at least
/// `min_redundancy` failures per vdev, in a stable order (stripe, mirrors, raidz, dRAID).
pub fn candidates(disks: u32, hot_spares: u32, min_redundancy: u32) -> Vec<Candidate> {
    let pool_disks = disks.saturating_sub(hot_spares);
    let mut out = Vec::new();
    let mut push = |count: u32, vtype: VdevType, children: u32| {
        if count == 0 {
            return;
        }
        let group = VdevGroup {
            count,
            vtype,
            children,
        };
        if group.redundancy() < min_redundancy {
            return;
        }
        out.push(Candidate {
            hot_spares: disks - group.leaves(),
            layout: Layout {
                groups: vec![group],
            },
        });
    };
    push(pool_disks, VdevType::Disk, 1);
    for width in [2, 3] {
        push(pool_disks / width, VdevType::Mirror, width);
    }
    for parity in 1..=model::layout::MAX_PARITY {
        for width in parity + 2..=(parity + MAX_DATA_COLUMNS).min(pool_disks) {
            push(pool_disks / width, VdevType::Raidz { parity }, width);
        }
    }
    let draid_vdevs = pool_disks.div_ceil(DRAID_MAX_CHILDREN).max(1);
    let children = pool_disks / draid_vdevs;
    for parity in 1..=model::layout::MAX_PARITY {
        for spares in 0..=MAX_DISTRIBUTED_SPARES {
            let room = children.saturating_sub(parity + spares);
            for data in 2..=room.min(MAX_DATA_COLUMNS) {
                let vtype = VdevType::Draid {
                    parity,
                    data,
                    spares,
                };
                push(draid_vdevs, vtype, children);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(c: &[Candidate]) -> Vec<String> {
        c.iter().map(|c| c.layout.to_string()).collect()
    }

    #[test]
    fn twelve_disks_counted_by_hand() {
        // stripe 1; mirror-2, mirror-3: 2; raidz1 widths 3..=12: 10, raidz2 4..=12: 9,
        // raidz3 5..=12: 8; dRAID of 12 children: p1 d in 2..=11-s for s 0..=3: 10+9+8+7,
        // p2: 9+8+7+6, p3: 8+7+6+5.
        let all = candidates(12, 0, 0);
        assert_eq!(all.len(), 1 + 2 + 27 + 34 + 30 + 26);
        assert_eq!(all.len(), 120);
        assert!(all.iter().all(|c| c.disks() == 12));
        let n = names(&all);
        assert_eq!(
            &n[..4],
            ["stripe-12", "6x mirror-2", "4x mirror-3", "4x raidz1-3"]
        );
        assert!(n.contains(&"draid3:6d:12c:3s".to_string()));
        assert!(!n.contains(&"draid3:7d:12c:3s".to_string()));
    }

    #[test]
    fn leftovers_become_spares() {
        let all = candidates(12, 1, 2);
        let find = |name: &str| all.iter().find(|c| c.layout.to_string() == name).unwrap();
        // 11 pool disks: two raidz2-5 leave one over, plus the one asked for.
        assert_eq!(find("2x raidz2-5").hot_spares, 2);
        assert_eq!(find("raidz2-11").hot_spares, 1);
        assert_eq!(find("3x mirror-3").hot_spares, 3);
        assert!(all.iter().all(|c| c.layout.redundancy() >= 2));
        // raidz2 4..=11: 8, raidz3 5..=11: 7, mirror-3: 1; dRAID of 11 children,
        // p2: 8+7+6+5, p3: 7+6+5+4.
        assert_eq!(all.len(), 8 + 7 + 1 + 26 + 22);
    }

    #[test]
    fn widths_stop_at_sixteen_data_columns() {
        let all = candidates(48, 0, 1);
        let n = names(&all);
        assert!(n.contains(&"2x raidz2-18".to_string()));
        assert!(!n.contains(&"2x raidz2-19".to_string()));
        assert!(n.contains(&"draid1:16d:48c:0s".to_string()));
        assert!(!n.contains(&"draid1:17d:48c:0s".to_string()));
    }

    #[test]
    fn too_few_disks_give_what_fits() {
        assert_eq!(names(&candidates(2, 0, 0)), ["stripe-2", "mirror-2"]);
        assert!(candidates(3, 0, 3).is_empty());
        assert_eq!(names(&candidates(0, 0, 0)), Vec::<String>::new());
    }
}
