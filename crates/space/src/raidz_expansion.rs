//! raidz expansion (OpenZFS 2.3 on, module/zfs/vdev_raidz.c): `zpool attach POOL raidzP-N
//! DISK` widens a raidz vdev by one disk, and what each block costs, what SIZE, ALLOC, FREE and
//! AVAIL read, before and after, at the fill the pool has at each step.
//!
//! The rules, as libzpool 2.3.2 and 2.4.4 run them (docs/space-rules.md, "raidz expansion"):
//! - vdev_raidz_open: the vdev's asize is its smallest child times the new width once the
//!   reflow is done (the old width while it runs); vdev_online(ZFS_ONLINE_EXPAND) at the end of
//!   spa_raidz_expand_thread grows it and vdev_metaslab_init adds metaslabs of the shift fixed
//!   at creation, the tail lost as before. A vdev that had 64 metaslabs or fewer and now has
//!   more lends one of the new ones to the embedded log.
//! - vdev_raidz_asize (2.4: vdev_raidz_psize_to_asize): a block costs parity and padding at the
//!   logical width of its birth txg (vdev_raidz_get_logical_width): blocks written before an
//!   expansion keep their old cost, reflowed or not; new blocks pay the new width's.
//! - vdev_set_deflate_ratio asks for the asize of 128 KiB at txg 0, the original width, so the
//!   ratio never changes: new metaslabs enter dspace, and every block is charged
//!   (dva_get_dsize_sync), at the original data-to-parity ratio. `zfs list` then understates
//!   what new data can fill: a 128 KiB record of raidz1-5 costs 160 KiB but is charged as if
//!   raidz1-4's 176 KiB held 128 KiB, 116 KiB.
//! - A rewrite (`zfs send | zfs recv`, or OpenZFS 2.4's `zfs rewrite`, whose blocks take the
//!   physical birth txg of the rewrite) pays the new width.

use crate::{capacity_of, deflate, raidz, GroupSpace, Profile, SpaceError};
use model::{Pool, VdevClass, VdevType};
use serde::Serialize;

/// The pool's data when a step starts: a share of SIZE allocated (`zpool list` CAP), or the
/// logical bytes written to the pool so far.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fill {
    /// A share of SIZE allocated, 0 to 1 (`zpool list` CAP).
    Capacity(f64),
    /// Logical bytes written so far.
    Data(u64),
}

/// What happens to the pool, one step after the other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Growth {
    /// Data written in records of `recordsize` until the pool holds `fill`.
    Fill {
        /// Where the writing stops.
        fill: Fill,
        /// The records' size, bytes.
        recordsize: u64,
    },
    /// The normal class's raidz vdevs widened: one `zpool attach` per disk and vdev, each followed
    /// by its reflow.
    Widen {
        /// The new width of each raidz vdev.
        width: u32,
    },
}

/// What the pool reads at one moment (zpool list, zfs list), and what really fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PoolFigures {
    /// `zpool list -p` SIZE.
    pub size_bytes: u64,
    /// `zpool list -p` ALLOC.
    pub alloc_bytes: u64,
    /// `zpool list -p` FREE.
    pub free_bytes: u64,
    /// Metaslabs per vdev.
    pub metaslabs: u64,
    /// Of them, those the embedded log holds.
    pub embedded_log_metaslabs: u64,
    /// Deflated normal-class space: what datasets can be charged before slop.
    pub dspace_bytes: u64,
    /// What `zfs list` holds back (spa_get_slop_space).
    pub slop_bytes: u64,
    /// The root dataset's USED: the data as charged, and the empty pool's own metadata.
    pub used_bytes: u64,
    /// `zfs list -p` AVAIL.
    pub avail_bytes: u64,
    /// Logical bytes of new records of the recordsize that still fit before AVAIL reaches 0:
    /// AVAIL over what one new record is charged.
    pub fits_bytes: u64,
}

/// What one record costs at a logical width.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RecordCost {
    /// The vdev width the record was written at.
    pub width: u32,
    /// The record's size, bytes.
    pub recordsize: u64,
    /// Records of this width in the pool (the newest width: none yet).
    pub records: u64,
    /// Allocated, parity and padding included.
    pub asize_bytes: u64,
    /// What `zfs list` charges, at the vdev's deflate ratio.
    pub charged_bytes: u64,
    /// recordsize / asize.
    pub efficiency: f64,
}

/// One step: the pool before and after the reflow, and what every width's records cost then.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepReport {
    /// The layout when the step starts.
    pub from: String,
    /// The layout when the reflow is done.
    pub to: String,
    /// Disks attached in the step, over all vdevs.
    pub disks_added: u32,
    /// Logical data in the pool when the step starts.
    pub data_bytes: u64,
    /// The pool before the first attach.
    pub before: PoolFigures,
    /// The pool after the last reflow.
    pub after: PoolFigures,
    /// What a record of each width so far costs after the step.
    pub records: Vec<RecordCost>,
}

/// Rewriting every record born at an older width at the final one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rewrite {
    /// Records rewritten.
    pub records: u64,
    /// ALLOC freed.
    pub alloc_freed_bytes: u64,
    /// AVAIL gained: the same bytes at the original deflate ratio.
    pub avail_gained_bytes: u64,
    /// The pool after the rewrite.
    pub after: PoolFigures,
}

/// A raidz pool widened step by step (`raidz_expansion`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExpansionReport {
    /// The starting layout, as written.
    pub layout: String,
    /// The records' size, bytes.
    pub recordsize: u64,
    /// In 1/512 units, kept from the original width for the vdev's life.
    pub deflate_ratio: u64,
    /// What a vdev of the final width created as such would have (for comparison).
    pub native_deflate_ratio: u64,
    /// Each widening, in order.
    pub steps: Vec<StepReport>,
    /// The pool once every growth is done (the last step's `after`, or later data on it), and
    /// what its records cost then.
    pub end: PoolFigures,
    /// What a record of each width costs at the end.
    pub records: Vec<RecordCost>,
    /// What rewriting the older records at the final width would give back.
    pub rewrite: Rewrite,
}

/// The pool as it stands: its groups (the normal raidz group at `width`), and the records
/// written at each width so far.
struct Expanding<'a> {
    pool: &'a Pool,
    profile: &'a Profile,
    groups: Vec<GroupSpace>,
    index: usize,
    /// The metaslab shift fixed at creation (vdev_metaslab_set_size is not called again).
    shift: u32,
    parity: u32,
    width: u32,
    recordsize: u64,
    eras: Vec<Era>,
}

/// Records of one size written at one logical width.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Era {
    width: u32,
    recordsize: u64,
    records: u64,
}

/// The asize of one block of `psize` at logical `width` (vdev_raidz_asize with the width of the
/// block's birth txg): the one place this file asks for raidz geometry.
fn asize_at_width(psize: u64, ashift: u8, width: u32, parity: u32) -> u64 {
    raidz::raidz_asize(psize, ashift, width, parity)
}

impl<'a> Expanding<'a> {
    fn new(pool: &'a Pool, profile: &'a Profile) -> Result<Self, SpaceError> {
        let refuse = |reason: &str| SpaceError::Expansion(reason.to_string());
        if !profile.raidz_expansion {
            return Err(SpaceError::Unsupported {
                what: "raidz expansion (zpool attach to a raidz vdev)".into(),
                profile: profile.name,
            });
        }
        let groups = crate::pool_groups(pool, profile)?;
        let normal: Vec<usize> = (0..groups.len())
            .filter(|&i| groups[i].class == VdevClass::Normal)
            .collect();
        let [index] = normal[..] else {
            return Err(refuse(
                "expansion widens one group of raidz vdevs: the pool has several normal groups",
            ));
        };
        let g = &groups[index];
        let VdevType::Raidz { parity } = g.group.vtype else {
            return Err(refuse("only raidz vdevs can be widened by zpool attach"));
        };
        Ok(Expanding {
            pool,
            profile,
            shift: g.metaslab_shift,
            parity,
            width: g.children,
            recordsize: crate::spa::pool_recordsize(pool),
            eras: Vec::new(),
            groups,
            index,
        })
    }

    fn asize(&self, width: u32, recordsize: u64) -> u64 {
        asize_at_width(recordsize, self.pool.ashift, width, self.parity)
    }

    fn ratio(&self) -> u64 {
        self.groups[self.index].deflate_ratio
    }

    fn alloc(&self) -> u64 {
        let per = |e: &Era| self.asize(e.width, e.recordsize);
        self.eras.iter().map(|e| e.records * per(e)).sum()
    }

    fn charged(&self) -> u64 {
        let per = |e: &Era| deflate::deflated(self.asize(e.width, e.recordsize), self.ratio());
        self.eras.iter().map(|e| e.records * per(e)).sum()
    }

    fn data(&self) -> u64 {
        self.eras.iter().map(|e| e.records * e.recordsize).sum()
    }

    fn figures(&self) -> Result<PoolFigures, SpaceError> {
        let cap = capacity_of(&self.groups, self.pool.ashift, self.profile)?;
        // The empty pool's metadata, charged at the deflate ratio, as allocated.
        let empty = (cap.empty_pool_used_bytes / self.ratio()) << deflate::SPA_MINBLOCKSHIFT;
        let alloc = self.alloc() + empty;
        let used = self.charged() + cap.empty_pool_used_bytes;
        let avail = cap
            .dspace_bytes
            .saturating_sub(cap.slop_bytes)
            .saturating_sub(used);
        let new_record = deflate::deflated(self.asize(self.width, self.recordsize), self.ratio());
        let g = &self.groups[self.index];
        Ok(PoolFigures {
            size_bytes: cap.size_bytes,
            alloc_bytes: alloc,
            free_bytes: cap.size_bytes.saturating_sub(alloc),
            metaslabs: g.metaslab_count,
            embedded_log_metaslabs: g.embedded_log_metaslabs,
            dspace_bytes: cap.dspace_bytes,
            slop_bytes: cap.slop_bytes,
            used_bytes: used,
            avail_bytes: avail,
            fits_bytes: avail / new_record * self.recordsize,
        })
    }

    /// Writes records of `recordsize` at the current width until the pool holds `fill`.
    fn fill_to(&mut self, fill: Fill, recordsize: u64) -> Result<(), SpaceError> {
        crate::spa::check_recordsize(recordsize, self.profile)?;
        let per = self.asize(self.width, recordsize);
        let before = self.figures()?;
        let records = match fill {
            Fill::Capacity(share) => {
                let target = (share * before.size_bytes as f64) as u64;
                target.saturating_sub(before.alloc_bytes).div_ceil(per)
            }
            Fill::Data(bytes) => bytes.saturating_sub(self.data()).div_ceil(recordsize),
        };
        let charged = records.checked_mul(deflate::deflated(per, self.ratio()));
        if charged.is_none_or(|c| c > before.avail_bytes) {
            return Err(SpaceError::Expansion(format!(
                "the {} cannot take that fill: it offers {} of AVAIL",
                self.layout(),
                model::units::format_bytes(before.avail_bytes)
            )));
        }
        let (width, recordsize) = (self.width, recordsize);
        match self
            .eras
            .iter_mut()
            .find(|e| (e.width, e.recordsize) == (width, recordsize))
        {
            Some(era) => era.records += records,
            None => self.eras.push(Era {
                width,
                recordsize,
                records,
            }),
        }
        Ok(())
    }

    /// vdev_raidz_open at the new width, vdev_metaslab_init of the added metaslabs (same shift,
    /// one lent to the embedded log if the count now passes the threshold), the original
    /// deflate ratio.
    fn widen(&mut self, width: u32) -> Result<(), SpaceError> {
        let profile = self.profile;
        let g = &mut self.groups[self.index];
        let asize = g
            .leaf
            .asize
            .checked_mul(u64::from(width))
            .ok_or(SpaceError::TooLarge)?;
        let count = asize >> self.shift;
        let whole = count << self.shift;
        let lends = profile.embedded_log_min_ms.is_some_and(|min| count > min);
        if g.embedded_log_metaslabs == 0 && lends {
            g.embedded_log_metaslabs = 1;
            g.embedded_log_bytes = 1u64 << self.shift;
        }
        let vdevs = u64::from(g.vdevs);
        let normal = whole - g.embedded_log_bytes;
        g.group.children = width;
        g.children = width;
        g.layout = g.group.to_string();
        g.vdev_asize = asize;
        g.metaslab_count = count;
        g.metaslab_space = whole;
        g.lost_tail_bytes = asize - whole;
        g.lost_bytes = asize - whole;
        g.size_bytes = whole * vdevs;
        g.normal_space_bytes = normal * vdevs;
        g.dspace_bytes = deflate::deflated(normal, g.deflate_ratio) * vdevs;
        g.embedded_log_dspace = deflate::deflated(g.embedded_log_bytes, g.deflate_ratio) * vdevs;
        self.width = width;
        Ok(())
    }

    /// What the records of every era cost, and a record of the pool's recordsize at the
    /// current width.
    fn costs(&self) -> Vec<RecordCost> {
        let mut eras = self.eras.clone();
        let now = (self.width, self.recordsize);
        if !eras.iter().any(|e| (e.width, e.recordsize) == now) {
            eras.push(Era {
                width: self.width,
                recordsize: self.recordsize,
                records: 0,
            });
        }
        eras.iter()
            .map(|e| {
                let asize = self.asize(e.width, e.recordsize);
                RecordCost {
                    width: e.width,
                    recordsize: e.recordsize,
                    records: e.records,
                    asize_bytes: asize,
                    charged_bytes: deflate::deflated(asize, self.ratio()),
                    efficiency: e.recordsize as f64 / asize as f64,
                }
            })
            .collect()
    }

    fn layout(&self) -> String {
        let g = &self.groups[self.index];
        let mut group = g.group;
        group.children = self.width;
        group.to_string()
    }
}

/// The pool's normal raidz vdevs grown as `growth` says: SIZE, ALLOC, FREE, dspace, slop and
/// AVAIL before and after each widening, what the records of each width cost, the pool at the
/// end, and what rewriting the old records at the final width gives back.
pub fn raidz_expansion(
    pool: &Pool,
    profile: &Profile,
    growth: &[Growth],
) -> Result<ExpansionReport, SpaceError> {
    let mut x = Expanding::new(pool, profile)?;
    crate::spa::check_recordsize(x.recordsize, profile)?;
    let layout = x.groups[x.index].layout.clone();
    let mut steps = Vec::new();
    for (i, g) in growth.iter().enumerate() {
        match *g {
            Growth::Fill { fill, recordsize } => x.fill_to(fill, recordsize)?,
            Growth::Widen { width } => steps.push(widen_step(&mut x, width, i)?),
        }
    }
    let end = x.figures()?;
    let records = x.costs();
    let rewrite = rewrite(&mut x)?;
    let native = deflate::DEFLATE_BLOCK
        / (asize_at_width(deflate::DEFLATE_BLOCK, pool.ashift, x.width, x.parity)
            >> deflate::SPA_MINBLOCKSHIFT);
    Ok(ExpansionReport {
        layout,
        recordsize: x.recordsize,
        deflate_ratio: x.ratio(),
        native_deflate_ratio: native,
        steps,
        end,
        records,
        rewrite,
    })
}

fn widen_step(x: &mut Expanding, width: u32, i: usize) -> Result<StepReport, SpaceError> {
    if width <= x.width {
        return Err(SpaceError::Expansion(format!(
            "step {}: raidz{}-{width} is not wider than raidz{}-{}",
            i + 1,
            x.parity,
            x.parity,
            x.width
        )));
    }
    let from = x.layout();
    let before = x.figures()?;
    let added = (width - x.width) * x.groups[x.index].vdevs;
    x.widen(width)?;
    Ok(StepReport {
        from,
        to: x.layout(),
        disks_added: added,
        data_bytes: x.data(),
        before,
        after: x.figures()?,
        records: x.costs(),
    })
}

/// Every record born at an older width rewritten at the current one.
fn rewrite(x: &mut Expanding) -> Result<Rewrite, SpaceError> {
    let (alloc, charged) = (x.alloc(), x.charged());
    let width = x.width;
    let records: u64 = x
        .eras
        .iter()
        .filter(|e| e.width != width)
        .map(|e| e.records)
        .sum();
    for e in &mut x.eras {
        e.width = width;
    }
    Ok(Rewrite {
        records,
        alloc_freed_bytes: alloc - x.alloc(),
        avail_gained_bytes: charged - x.charged(),
        after: x.figures()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{Layout, Leaf};

    fn pool(layout: &str) -> Pool {
        let leaf = Leaf {
            capacity_bytes: 536_870_912,
            logical_sector: 512,
            whole_disk: false,
        };
        Pool::simple(layout.parse::<Layout>().unwrap(), leaf, 12)
    }

    /// Two raidz1-4 of the oracle's x01 files widened together: each vdev as x01's (19
    /// metaslabs of 128 MiB at ratio 372), twice over; two disks attached.
    #[test]
    fn every_vdev_of_the_group_is_widened() {
        let r = raidz_expansion(
            &pool("2x raidz1-4"),
            &Profile::modern(),
            &[Growth::Widen { width: 5 }],
        )
        .unwrap();
        let step = &r.steps[0];
        assert_eq!(
            (step.from.as_str(), step.to.as_str()),
            ("2x raidz1-4", "2x raidz1-5")
        );
        assert_eq!(step.disks_added, 2);
        assert_eq!(step.after.size_bytes, 2 * 2_550_136_832);
        assert_eq!(step.after.dspace_bytes, 2 * 1_852_833_792);
        assert_eq!(r.rewrite.records, 0);
    }

    #[test]
    fn refusals() {
        let modern = Profile::modern();
        let widen = [Growth::Widen { width: 5 }];
        let e = raidz_expansion(&pool("mirror-2"), &modern, &widen).unwrap_err();
        assert_eq!(
            e.to_string(),
            "raidz expansion: only raidz vdevs can be widened by zpool attach"
        );
        let old = Profile::of("2.2".parse().unwrap());
        let e = raidz_expansion(&pool("raidz1-4"), &old, &widen).unwrap_err();
        assert!(matches!(e, SpaceError::Unsupported { .. }), "{e}");
        let narrower = [Growth::Widen { width: 4 }];
        let e = raidz_expansion(&pool("raidz1-4"), &modern, &narrower).unwrap_err();
        assert!(
            e.to_string()
                .contains("raidz1-4 is not wider than raidz1-4"),
            "{e}"
        );
        // The empty x01 pool offers about 1.3 GB of AVAIL: 2 GB of data does not fit.
        let full = [Growth::Fill {
            fill: Fill::Data(2_000_000_000),
            recordsize: 1 << 17,
        }];
        let e = raidz_expansion(&pool("raidz1-4"), &modern, &full).unwrap_err();
        assert!(
            e.to_string().contains("the raidz1-4 cannot take that fill"),
            "{e}"
        );
    }
}
