//! "Start with N disks and grow to M": the raidz layouts of N disks that raidz expansion
//! (OpenZFS 2.3 on, `zpool attach`) can widen to M, one disk per vdev at a time, and the space
//! each step really gives (crates/space raidz_expansion), against a pool created on the M
//! disks at once.

use model::{Leaf, Pool, VdevGroup, VdevType};
use serde::Serialize;
use space::{raidz_expansion, Fill, Growth, Profile};

/// The pool after one widening.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GrowthStep {
    /// The layout after the widening.
    pub layout: String,
    /// Disks in the pool after it.
    pub disks: u32,
    /// zfs list AVAIL, as the original deflate ratio converts it.
    pub avail_bytes: u64,
    /// Data in the pool plus the new records that still fit: what the pool really holds.
    pub capacity_bytes: u64,
}

/// One layout of the first disks, grown to the last.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GrowthOption {
    /// The layout on the first disks.
    pub start: String,
    /// The layout once grown to the last.
    pub end: String,
    /// `zfs list` AVAIL of the start layout, bytes.
    pub start_avail_bytes: u64,
    /// Each widening, in order.
    pub steps: Vec<GrowthStep>,
    /// What the grown pool holds once old data is rewritten at the final width.
    pub rewritten_capacity_bytes: u64,
    /// AVAIL of the end layout created on all the disks at once.
    pub native_avail_bytes: u64,
}

/// The grown pools of `start` disks widened to `end`, filled to `fill` (a share of SIZE) before
/// every widening, most space at the end first. Layouts: k raidzP-w of the first disks (P from
/// `min_parity`, at least 1; w at least P + 2) whose k divides the disks added.
pub fn grow(
    leaf: Leaf,
    ashift: u8,
    profile: &Profile,
    (start, end): (u32, u32),
    min_parity: u32,
    fill: f64,
) -> Vec<GrowthOption> {
    let mut out: Vec<GrowthOption> = candidates(start, end, min_parity)
        .into_iter()
        .filter_map(|g| option(g, leaf, ashift, profile, end, fill))
        .collect();
    out.sort_by_key(|o| std::cmp::Reverse(o.steps.last().map_or(0, |s| s.capacity_bytes)));
    out
}

/// The options whose layouts, as created and as grown, the planner's policy keeps
/// ([`crate::rules`]: no raidz wider than 12, no single parity on disks over 4 TB past a home
/// pool), on disks of `disk_bytes`.
pub fn within_policy(options: Vec<GrowthOption>, disk_bytes: u64) -> Vec<GrowthOption> {
    options
        .into_iter()
        .filter(|o| {
            [&o.start, &o.end].iter().all(|text| {
                text.parse::<model::Layout>().is_ok_and(|layout| {
                    let candidate = crate::enumerate::Candidate {
                        layout,
                        hot_spares: 0,
                    };
                    crate::rules::broken_rule(&candidate, disk_bytes).is_none()
                })
            })
        })
        .collect()
}

fn candidates(start: u32, end: u32, min_parity: u32) -> Vec<VdevGroup> {
    let mut out = Vec::new();
    if end <= start {
        return out;
    }
    let divides = |k: &u32| start.is_multiple_of(*k) && (end - start).is_multiple_of(*k);
    for parity in min_parity.max(1)..=3 {
        for count in (1..=start).filter(divides) {
            let width = start / count;
            if width >= parity + 2 {
                out.push(VdevGroup {
                    count,
                    vtype: VdevType::Raidz { parity },
                    children: width,
                });
            }
        }
    }
    out
}

/// The growth from `from` disks wide to `to`: before each added disk the pool is filled to
/// `fill` of its capacity, since what an expansion leaves depends on the blocks already
/// written (zpool-attach(8): they keep their old data-to-parity ratio).
fn growth(from: u32, to: u32, fill: f64) -> Vec<Growth> {
    (from + 1..=to)
        .flat_map(|width| {
            [
                Growth::Fill {
                    fill: Fill::Capacity(fill),
                    recordsize: model::pool::DEFAULT_RECORDSIZE,
                },
                Growth::Widen { width },
            ]
        })
        .collect()
}

fn option(
    group: VdevGroup,
    leaf: Leaf,
    ashift: u8,
    profile: &Profile,
    end: u32,
    fill: f64,
) -> Option<GrowthOption> {
    let pool = Pool::simple(
        model::Layout {
            groups: vec![group],
        },
        leaf,
        ashift,
    );
    let final_width = end / group.count;
    let report =
        raidz_expansion(&pool, profile, &growth(group.children, final_width, fill)).ok()?;
    let steps = report
        .steps
        .iter()
        .zip(group.children + 1..)
        .map(|(s, width)| GrowthStep {
            layout: s.to.clone(),
            disks: width * group.count,
            avail_bytes: s.after.avail_bytes,
            capacity_bytes: s.data_bytes + s.after.fits_bytes,
        })
        .collect();
    let native = Pool::simple(
        model::Layout {
            groups: vec![VdevGroup {
                children: final_width,
                ..group
            }],
        },
        leaf,
        ashift,
    );
    let data = report.steps.last().map_or(0, |s| s.data_bytes);
    Some(GrowthOption {
        start: group.to_string(),
        end: VdevGroup {
            children: final_width,
            ..group
        }
        .to_string(),
        start_avail_bytes: space::pool_capacity(&pool, profile).ok()?.avail_bytes,
        steps,
        rewritten_capacity_bytes: data + report.rewrite.after.fits_bytes,
        native_avail_bytes: space::pool_capacity(&native, profile).ok()?.avail_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_that_grow_six_disks_to_ten() {
        let names: Vec<String> = candidates(6, 10, 0).iter().map(|g| g.to_string()).collect();
        assert_eq!(names, ["raidz1-6", "2x raidz1-3", "raidz2-6", "raidz3-6"]);
        assert_eq!(candidates(6, 10, 2).len(), 2);
        assert!(candidates(6, 6, 0).is_empty());
    }

    /// raidz1-4 of 512 MiB files (the oracle's x01) widened to 5, empty: dspace 19 x 128 MiB
    /// deflated at 372 = 1,852,833,792, less the slop (128 MiB) and the empty pool's
    /// 100 x 8 KiB x 372/512 = 595,200: AVAIL 1,718,020,864. A new 128 KiB record costs
    /// 160 KiB, charged 320 x 372 = 119,040: 14,432 of them fit, 1,891,631,104 bytes.
    #[test]
    fn the_space_a_step_really_gives() {
        let leaf = Leaf {
            capacity_bytes: 536_870_912,
            logical_sector: 512,
            whole_disk: false,
        };
        let options = grow(leaf, 12, &Profile::modern(), (4, 5), 1, 0.0);
        let o = options.iter().find(|o| o.start == "raidz1-4").unwrap();
        assert_eq!(o.end, "raidz1-5");
        assert_eq!(o.steps[0].avail_bytes, 1_718_020_864);
        assert_eq!(o.steps[0].capacity_bytes, 1_891_631_104);
    }

    /// Issue #26: 16 TB disks grown from 6 to 10 listed raidz1-6 -> raidz1-10 first, though
    /// the policy rules single parity out on large disks past 6 disks (2x raidz1-3 grows to
    /// 2x raidz1-5 on 10); to 14 disks raidz2-6 and raidz3-6 would grow too wide.
    #[test]
    fn growth_obeys_the_policy() {
        let leaf = Leaf {
            capacity_bytes: 16_000_900_661_248,
            logical_sector: 512,
            whole_disk: true,
        };
        let all = grow(leaf, 12, &Profile::modern(), (6, 10), 0, 0.8);
        let starts = |o: &[GrowthOption]| -> Vec<String> {
            let mut v: Vec<String> = o.iter().map(|o| o.start.clone()).collect();
            v.sort();
            v
        };
        assert_eq!(
            starts(&all),
            ["2x raidz1-3", "raidz1-6", "raidz2-6", "raidz3-6"]
        );
        let kept = within_policy(all, leaf.capacity_bytes);
        assert_eq!(starts(&kept), ["raidz2-6", "raidz3-6"]);
        let wide = grow(leaf, 12, &Profile::modern(), (6, 14), 2, 0.8);
        assert!(within_policy(wide, leaf.capacity_bytes).is_empty());
    }
}
