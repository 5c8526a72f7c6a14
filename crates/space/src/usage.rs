//! The real cost of data: how many bytes a file of a given size takes on the pool for a
//! recordsize, and what `zfs list` charges for it.
//!
//! A file is cut into records of `recordsize` (docs/zfs-internals.md §2). A file no larger than
//! the recordsize is one block of its own size rounded up to 512 bytes (dnode_set_blksz rounds
//! the block size to SPA_MINBLOCKSIZE), stored in whole sectors; a larger file is
//! ceil(size / rs) blocks of the recordsize, the last one partial. Without compression
//! (compression=off; the default before OpenZFS 2.2, lz4 since) the partial last record is
//! written whole, zero tail included. Each block
//! then costs its asize on the vdev (sectors, parity, padding: `block_asize`), and `zfs list`
//! charges (asize >> 9) x the vdev's deflate ratio (bp_get_dsize_sync), a ratio made for
//! 128 KiB blocks: small blocks on raidz are charged more than their size, large ones less.
//!
//! Only data blocks are counted: the dnode, indirect blocks (about 1/1000 of a large file,
//! with their ditto copies) and directory entries are not.

use crate::deflate::deflated;
use crate::vdev::{block_asize, ideal_efficiency};
use crate::{GroupSpace, SpaceError};
use model::units::format_bytes;
use serde::Serialize;

/// SPA_MINBLOCKSIZE: block sizes are multiples of 512 bytes.
pub(crate) const SPA_MINBLOCKSIZE: u64 = 512;

/// Whether the pool compresses (only its effect on the zero tail of the last record is
/// modelled: the data itself is taken as incompressible).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Compression {
    /// compression=off (the default): the last record is written whole.
    #[default]
    Off,
    /// Any compression: the zeros past the end of the file in the last record compress away,
    /// so it takes its data rounded up to the sector, unless that saves less than 1/8 of the
    /// record, when ZFS stores it uncompressed (zio_compress_data). APPROXIMATION: the few
    /// bytes of compressor framing are ignored.
    On,
}

/// What one file costs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileCost {
    /// The file's logical size.
    pub file_bytes: u64,
    /// The dataset's recordsize.
    pub recordsize: u64,
    /// Data blocks.
    pub blocks: u64,
    /// psize of the last (or only) block.
    pub last_block_bytes: u64,
    /// Sum of the blocks' asize: what `zpool list` ALLOC grows by (parity and padding in,
    /// one side of a mirror).
    pub allocated_bytes: u64,
    /// What the disks hold: allocated bytes times the copies of a mirror.
    pub raw_bytes: u64,
    /// What `zfs list -p used` grows by: each block's (asize >> 9) x deflate ratio.
    pub used_bytes: u64,
    /// `zfs list` USED per byte of the file (`None` for an empty file).
    pub used_per_byte: Option<f64>,
    /// Said when `used_bytes` is more than the empty pool's AVAIL: the file does not fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// The psize of each block of a file: (full records, their size, size of the last block).
/// The last block is 0 for an empty file.
pub(crate) fn file_blocks(
    recordsize: u64,
    file_bytes: u64,
    compression: Compression,
    ashift: u8,
) -> (u64, u64, u64) {
    if file_bytes == 0 {
        return (0, recordsize, 0);
    }
    if file_bytes <= recordsize {
        return (
            0,
            recordsize,
            file_bytes.div_ceil(SPA_MINBLOCKSIZE) * SPA_MINBLOCKSIZE,
        );
    }
    let records = file_bytes.div_ceil(recordsize);
    let tail = file_bytes - (records - 1) * recordsize;
    let last = match compression {
        Compression::Off => recordsize,
        Compression::On => {
            let sector = 1u64 << ashift;
            let squeezed = tail.div_ceil(sector) * sector;
            if squeezed <= recordsize - (recordsize >> 3) {
                squeezed
            } else {
                recordsize
            }
        }
    };
    (records - 1, recordsize, last)
}

/// One block's cost on a group: (asize, charged).
fn block_cost(g: &GroupSpace, ashift: u8, psize: u64) -> (u64, u64) {
    let asize = block_asize(&g.group, ashift, psize);
    (asize, deflated(asize, g.deflate_ratio))
}

/// Copies of each block on the disks: the sides of a mirror, else 1.
fn copies(g: &GroupSpace) -> u64 {
    match g.group.vtype {
        model::VdevType::Mirror => u64::from(g.group.children),
        _ => 1,
    }
}

/// The weights by which new data spreads over the normal groups: the allocator keeps vdevs
/// about equally full, so each group takes a share proportional to its metaslab space.
/// APPROXIMATION for mixed pools; exact when all groups are alike.
fn shares(groups: &[GroupSpace]) -> Vec<(usize, f64)> {
    let normal: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i].is_normal())
        .collect();
    let total: f64 = normal
        .iter()
        .map(|&i| groups[i].normal_space_bytes as f64)
        .sum();
    normal
        .into_iter()
        .map(|i| (i, groups[i].normal_space_bytes as f64 / total.max(1.0)))
        .collect()
}

/// `full` blocks costing `each` and a last one costing `last`; `None` past 2^64 bytes.
fn blocks_total(full: u64, each: u64, last: u64) -> Option<u64> {
    full.checked_mul(each)?.checked_add(last)
}

/// The cost of a file of `file_bytes` with `recordsize` on a pool whose groups are `groups`,
/// against the empty pool's AVAIL of `avail` bytes. `FileTooLarge` when it passes 2^64 bytes.
pub(crate) fn file_cost_on(
    groups: &[GroupSpace],
    ashift: u8,
    recordsize: u64,
    file_bytes: u64,
    compression: Compression,
    avail: u64,
) -> Result<FileCost, SpaceError> {
    let (full, size, last) = file_blocks(recordsize, file_bytes, compression, ashift);
    let blocks = full + u64::from(last > 0);
    let weights = shares(groups);
    let per_group = weights
        .iter()
        .map(|&(i, _)| {
            let g = &groups[i];
            let (fa, fu) = block_cost(g, ashift, size);
            let (la, lu) = block_cost(g, ashift, last);
            let a = blocks_total(full, fa, la)?;
            Some((a, a.checked_mul(copies(g))?, blocks_total(full, fu, lu)?))
        })
        .collect::<Option<Vec<(u64, u64, u64)>>>()
        .ok_or(SpaceError::FileTooLarge { file_bytes })?;
    let (allocated_bytes, raw_bytes, used_bytes) = if per_group.windows(2).all(|w| w[0] == w[1]) {
        per_group.first().copied().unwrap_or_default()
    } else {
        let (mut a, mut r, mut u) = (0.0, 0.0, 0.0);
        for ((ga, gr, gu), (_, w)) in per_group.iter().zip(&weights) {
            a += *ga as f64 * w;
            r += *gr as f64 * w;
            u += *gu as f64 * w;
        }
        (a.round() as u64, r.round() as u64, u.round() as u64)
    };
    Ok(FileCost {
        file_bytes,
        recordsize,
        blocks,
        last_block_bytes: last,
        allocated_bytes,
        raw_bytes,
        used_bytes,
        used_per_byte: (file_bytes > 0).then(|| used_bytes as f64 / file_bytes as f64),
        warning: (used_bytes > avail).then(|| {
            format!(
                "a file of {} would be charged {} by zfs list, more than the empty pool's AVAIL of {}: it does not fit",
                format_bytes(file_bytes),
                format_bytes(used_bytes),
                format_bytes(avail)
            )
        }),
    })
}

/// One group's figures for a record size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupRecord {
    pub layout: String,
    /// asize of one record.
    pub asize: u64,
    /// psize / asize.
    pub efficiency: f64,
    /// The best this vdev type can do: (w - p) / w, d / (d + p), 1.
    pub ideal: f64,
    /// What `zfs list` charges for one record.
    pub charged_bytes: u64,
}

/// How well records of one size use the pool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordEfficiency {
    /// The record size, bytes.
    pub recordsize: u64,
    /// psize / asize, over the normal groups weighted as data spreads.
    pub efficiency: f64,
    /// What `zfs list` charges per byte of such records: 1.0 when the 128 KiB deflate ratio
    /// fits, above 1 when the records waste more than a 128 KiB block does.
    pub charge_per_byte: f64,
    /// Data of this record size that fits in the empty pool's AVAIL: avail / charge_per_byte.
    pub fits_bytes: u64,
    /// The same on each normal group.
    pub groups: Vec<GroupRecord>,
}

/// Efficiency of full records of `recordsize` on the normal groups.
pub(crate) fn record_efficiency(
    groups: &[GroupSpace],
    ashift: u8,
    recordsize: u64,
    avail: u64,
) -> RecordEfficiency {
    let mut asize_w = 0.0;
    let mut charged_w = 0.0;
    let mut out = Vec::new();
    for (i, w) in shares(groups) {
        let g = &groups[i];
        let (asize, charged) = block_cost(g, ashift, recordsize);
        asize_w += asize as f64 * w;
        charged_w += charged as f64 * w;
        out.push(GroupRecord {
            layout: g.layout.clone(),
            asize,
            efficiency: recordsize as f64 / asize as f64,
            ideal: ideal_efficiency(&g.group),
            charged_bytes: charged,
        });
    }
    let charge = charged_w / recordsize as f64;
    RecordEfficiency {
        recordsize,
        efficiency: recordsize as f64 / asize_w.max(1.0),
        charge_per_byte: charge,
        fits_bytes: (avail as f64 / charge.max(f64::MIN_POSITIVE)) as u64,
        groups: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_a_file() {
        // Empty file: no block.
        assert_eq!(
            file_blocks(128 << 10, 0, Compression::Off, 12),
            (0, 128 << 10, 0)
        );
        // 1000 B: one block of 1024 B (two 512 B units).
        assert_eq!(
            file_blocks(128 << 10, 1000, Compression::Off, 12),
            (0, 128 << 10, 1024)
        );
        // Exactly one record.
        assert_eq!(
            file_blocks(128 << 10, 128 << 10, Compression::Off, 12),
            (0, 128 << 10, 128 << 10)
        );
        // 129 KiB: two records, the last written whole without compression...
        assert_eq!(
            file_blocks(128 << 10, 129 << 10, Compression::Off, 12),
            (1, 128 << 10, 128 << 10)
        );
        // ...and squeezed to one 4 KiB sector with it.
        assert_eq!(
            file_blocks(128 << 10, 129 << 10, Compression::On, 12),
            (1, 128 << 10, 4096)
        );
        // A tail of 120 KiB saves less than 1/8 of 128 KiB: stored whole.
        assert_eq!(
            file_blocks(128 << 10, 248 << 10, Compression::On, 12),
            (1, 128 << 10, 128 << 10)
        );
    }
}
