//! What a healing resilver's scan costs per block, beyond streaming its bytes
//! (module/zfs/dsl_scan.c of OpenZFS 2.4; docs/assumptions.md "Resilver time").
//!
//! A resilver is a scan of the block tree: `dsl_scan_visit` reads every indirect block and
//! dnode to find the block pointers, then `scan_io_queues_run` issues the data blocks sorted
//! by offset, one `scan_exec_io` zio per block; the two phases take turns and never overlap
//! ("metadata scanning and queued I/O issuing are mutually exclusive"). So per surviving leaf:
//! - **metadata**: one level-1 indirect block of 128 KiB holds 1,024 block pointers of 128
//!   bytes, so a vdev of N blocks has N / 1,024 of them, each a random read on the leaves its
//!   row lies on (all `w` of a raidz or dRAID row; one side of a mirror). Higher levels and
//!   dnodes (one per file) are left out: 1/1,024 as many, and the file count is unknown.
//! - **data**: the leaf's columns, read in offset order over the span the data occupies.
//!   vdev_queue.c joins adjacent reads up to `zfs_vdev_aggregation_limit` (1 MiB on rotating
//!   leaves) and across gaps of up to `zfs_vdev_read_gap_limit` (32 KiB); each joined read is
//!   one command. Free space among the data (a pool in service: frees leave holes the
//!   allocator passes over) lengthens the span the head crosses and breaks the runs: a column
//!   is followed by free space with chance g (the free share of the span), and a hole runs on
//!   for k columns with chance g^(k-1), so it is wider than the gap limit of m columns with
//!   chance g^m. Holes within an extent (sorted scans bridge gaps up to
//!   `zfs_scan_max_ext_gap`, 2 MiB) pass under the head at the media rate.
//! - **scattered blocks**: the scan queues are bounded in memory (`dsl_scan_should_clear`:
//!   5% of RAM, `zfs_scan_mem_lim_fact` 20, at least 16 MiB and at most 1/20 of the
//!   allocated bytes), so the data is sorted one window of blocks at a time, in the order
//!   the block tree lists them. A block the allocator placed apart from the blocks written
//!   with it costs one more read, reached among the window's sorted reads, unless its
//!   physical neighbours fall in the same window (chance: the window's share of the pool's
//!   blocks). metaslab.c `metaslab_df_alloc` places blocks by size, not along the cursor,
//!   in a metaslab with less than `metaslab_df_free_pct` (4%) free: the fuller the pool, the
//!   more of its metaslabs are there (`placed_by_size`).
//! - **CPU**: each block is a logical zio and one child per column, and its checksum is
//!   verified over the record.

use model::{VdevGroup, VdevType};
use perf::BlockCosts;

/// Block pointers in one 128 KiB indirect block (SPA_BLKPTRSHIFT 7, indirect block shift 17).
const POINTERS_PER_INDIRECT: f64 = 1024.0;
/// An indirect block's size (DN_MAX_INDBLKSHIFT 17).
const INDIRECT_BYTES: f64 = 131072.0;
/// zfs_vdev_read_gap_limit (vdev_queue.c).
const READ_GAP_LIMIT: f64 = 32768.0;
/// Bytes one queued block takes in the scan's memory: `SIO_GET_MUSED` of a scan_io_t (120
/// bytes on a 64-bit host) with one 16-byte DVA; the extent trees' few bytes are left out.
const QUEUED_BLOCK_BYTES: f64 = 136.0;
/// metaslab_df_free_pct (metaslab.c): below this free share a metaslab allocates by size.
const DF_FREE_SHARE: f64 = 0.04;

/// How the pool's blocks lie: what the scan reads.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ScanShape {
    /// Record size of the data (the first dataset's recordsize), bytes.
    pub recordsize: f64,
    /// Sector size, 1 << ashift.
    pub sector: f64,
    /// Share of the span the data occupies that is free (holes among the data), 0..1.
    pub free_among_data: f64,
    /// Blocks one sorted window of the scan holds (`scan_window_blocks`).
    pub window_blocks: f64,
    /// The pool's allocated bytes, parity included (what `metaslab_class_get_alloc` counts).
    pub allocated_bytes: f64,
    /// What each block costs on this hardware (`perf::rebuild_path`).
    pub costs: BlockCosts,
}

/// One surviving leaf's scan.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LeafScan {
    /// Blocks of the vdev, and the indirect-block reads that fall on this leaf.
    pub blocks: f64,
    pub indirect_reads: f64,
    /// Bytes the head crosses, and the read commands after aggregation.
    pub span_bytes: f64,
    pub commands: f64,
    /// Reads of blocks placed apart from their neighbours that the window could not sort in.
    pub scattered_reads: f64,
    /// Seconds of this leaf's time (before any user load) and of the host's CPU.
    pub disk_s: f64,
    pub cpu_s: f64,
}

/// The average column one block puts on a leaf and the leaves it touches: a mirror puts the
/// whole record on every side; a raidz block of D data sectors takes `ceil(D / (w - p))` rows
/// of p parity sectors each, padded to a multiple of p + 1 (vdev_raidz_psize_to_asize), dRAID pads to
/// whole rows (vdev_draid_psize_to_asize); it touches min(w, D + p) leaves.
fn column(group: &VdevGroup, recordsize: f64, sector: f64) -> (f64, f64) {
    let w = group.children as f64;
    let d = (recordsize / sector).ceil().max(1.0);
    match group.vtype {
        VdevType::Disk | VdevType::Mirror => (d * sector, w),
        VdevType::Raidz { parity } => {
            let p = parity as f64;
            let rows = (d / (w - p)).ceil();
            let sectors = ((d + p * rows) / (p + 1.0)).ceil() * (p + 1.0);
            let touched = w.min(d + p);
            (sectors * sector / touched, touched)
        }
        VdevType::Draid { parity, data, .. } => {
            let (p, dc) = (parity as f64, data as f64);
            let rows = (d / dc).ceil();
            ((dc + p) * rows * sector / (dc + p), dc + p)
        }
    }
}

/// The share of the span the data occupies that is free, for a leaf filled to `fill`: the
/// shape's own, unless the data with it would overrun the leaf; then the data spans the
/// whole leaf and 1 - fill of it is free.
fn free_share(shape: &ScanShape, fill: f64) -> f64 {
    shape.free_among_data.min(1.0 - fill).clamp(0.0, 0.99)
}

/// Blocks one sorted window of the scan holds on a host of `ram_bytes` with `allocated_bytes`
/// in the pool: `dsl_scan_should_clear`'s hard limit, physmem / `zfs_scan_mem_lim_fact` (20)
/// but at least `zfs_scan_mem_lim_min` (16 MiB) and at most 1/20 of the allocated bytes, over
/// a queued block's bytes.
pub(crate) fn scan_window_blocks(ram_bytes: f64, allocated_bytes: f64) -> f64 {
    const MEM_LIM_FACT: f64 = 20.0;
    const MEM_LIM_MIN: f64 = 16.0 * 1024.0 * 1024.0;
    let hard = (ram_bytes / MEM_LIM_FACT)
        .max(MEM_LIM_MIN)
        .min(allocated_bytes / MEM_LIM_FACT);
    hard / QUEUED_BLOCK_BYTES
}

/// The share of a pool's blocks placed by size (metaslab_df_alloc's best fit) at `fill`:
/// the metaslabs' own fills taken as spread evenly about the pool's, as widely as 0 and 1
/// allow (the allocator moves on from a metaslab as its weight falls, so some are nearly
/// full while others are nearly empty), and those with less than 4% free place by size.
fn placed_by_size(fill: f64) -> f64 {
    let half = fill.min(1.0 - fill);
    if half <= 0.0 {
        // An empty or a full pool: every metaslab alike.
        return if fill > 1.0 - DF_FREE_SHARE { 1.0 } else { 0.0 };
    }
    let high = fill + half;
    (high - (1.0 - DF_FREE_SHARE)).clamp(0.0, 2.0 * half) / (2.0 * half)
}

/// The scan of one surviving leaf that reads `read` bytes of a vdev whose leaves each hold
/// `share` allocated bytes (a share `fill` of the leaf), streaming at `read_rate` bytes/s.
pub(crate) fn leaf_scan(
    group: &VdevGroup,
    (share, fill): (f64, f64),
    read: f64,
    read_rate: f64,
    shape: &ScanShape,
) -> LeafScan {
    let c = group.children as f64;
    let costs = &shape.costs;
    let (b, touched) = column(group, shape.recordsize, shape.sector);
    let blocks = c * share / (b * touched);
    let on_leaves = match group.vtype {
        VdevType::Mirror | VdevType::Disk => 1.0,
        _ => column(group, INDIRECT_BYTES, shape.sector).1,
    };
    let indirect_reads = blocks / POINTERS_PER_INDIRECT * on_leaves / c;
    let g = free_share(shape, fill);
    let span_bytes = read / (1.0 - g);
    let columns = read / b;
    let breaks = columns * g * g.powf((READ_GAP_LIMIT / b).floor());
    let commands = breaks + span_bytes / costs.aggregation_bytes.max(b);
    // A block placed by size sorts in with its neighbours only when the window holds them.
    let window = (shape.window_blocks * b * touched / shape.allocated_bytes.max(1.0)).min(1.0);
    let scattered_reads = columns * placed_by_size(fill) * (1.0 - window);
    let disk_s = indirect_reads * costs.indirect_read_s
        + span_bytes / read_rate
        + commands * costs.command_s
        + scattered_reads * costs.scattered_read_s;
    let per_block =
        (1.0 + touched) * costs.zio_cpu_s + shape.recordsize * costs.checksum_s_per_byte;
    LeafScan {
        blocks,
        indirect_reads,
        span_bytes,
        commands,
        scattered_reads,
        disk_s,
        cpu_s: blocks * per_block / costs.cores,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_five_percent_of_ram_in_queued_blocks() {
        // 64 GiB: 3,435,973,836.8 bytes of queue, 136 bytes a block: 25.26 million blocks.
        let w = scan_window_blocks(68719476736.0, 2e13);
        assert!((w - 68719476736.0 / 20.0 / 136.0).abs() < 1e-3, "{w}");
        // At least 16 MiB, at most 1/20 of what is allocated.
        assert_eq!(scan_window_blocks(1e6, 1e13), 16777216.0 / 136.0);
        assert_eq!(scan_window_blocks(68719476736.0, 1e9), 5e7 / 136.0);
    }

    #[test]
    fn fuller_pools_place_more_blocks_by_size() {
        // Metaslab fills spread evenly over [2f - 1, 1] above half full, [0, 2f] below; those
        // above 96% full place by size.
        for (fill, share) in [(0.3, 0.0), (0.5, 0.04), (0.8, 0.1), (0.9, 0.2), (0.98, 1.0)] {
            assert!((placed_by_size(fill) - share).abs() < 1e-12, "{fill}");
        }
        assert_eq!(placed_by_size(1.0), 1.0);
        assert_eq!(placed_by_size(0.0), 0.0);
    }
}
