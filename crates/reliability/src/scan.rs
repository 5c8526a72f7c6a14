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

/// How the pool's blocks lie: what the scan reads.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ScanShape {
    /// Record size of the data (the first dataset's recordsize), bytes.
    pub recordsize: f64,
    /// Sector size, 1 << ashift.
    pub sector: f64,
    /// Share of the span the data occupies that is free (holes among the data), 0..1.
    pub free_among_data: f64,
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
    let disk_s = indirect_reads * costs.indirect_read_s
        + span_bytes / read_rate
        + commands * costs.command_s;
    let per_block =
        (1.0 + touched) * costs.zio_cpu_s + shape.recordsize * costs.checksum_s_per_byte;
    LeafScan {
        blocks,
        indirect_reads,
        span_bytes,
        commands,
        disk_s,
        cpu_s: blocks * per_block / costs.cores,
    }
}
