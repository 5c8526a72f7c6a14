//! The per-job work being gathered, disk by disk, as each stage adds its part.

use super::random::ReadTables;
use crate::leaf::load::DiskLoad;
use crate::vdev::VdevLoad;
use model::System;

/// The per-job work being gathered.
pub(super) struct Work {
    pub disks: Vec<DiskLoad>,
    pub vdev_of_disk: Vec<String>,
    pub vdevs: Vec<VdevLoad>,
    pub tables: ReadTables,
    /// Disk (or fork-join vdev) stations one random request reaches: its parts run at once.
    pub parts: f64,
    /// Reference cycles per job the kernel spends so far while a request is under way.
    pub cycles: f64,
    /// Reference cycles per job of the txg's writeback: compressing, checksumming and
    /// protecting the dirty records and issuing their write zios (spa_sync's pipeline).
    pub txg_cycles: f64,
    /// Bytes a stream's leaves' queues hold.
    pub queued_bytes: f64,
    /// Bytes per job copied from the ARC's scatter lists into dbuf buffers (abd.rs).
    pub filled: f64,
    /// Bytes per job copied into buffers a prefetch read throws away (prefetch_fill.rs).
    pub discarded: f64,
    /// Reference cycles per job of the dbuf buffers' fill (copy, decryption, decompression),
    /// on the application's threads and on the reads' completions. One rule, whoever makes
    /// the buffer: an arc_read that hits fills it on its caller's thread, as a prefetched
    /// block is read with ARC_FLAG_NO_BUF (dbuf.c dbuf_issue_final_prefetch) for its reader's
    /// hit to fill; a demand miss is filled by arc_read_done -> arc_buf_alloc_impl ->
    /// arc_buf_fill on the zio's completion thread (arc.c).
    pub fill_cycles: (f64, f64),
}

impl Work {
    pub(super) fn new(system: &System) -> Work {
        Work {
            disks: vec![DiskLoad::default(); system.disks.len()],
            vdev_of_disk: vec![String::new(); system.disks.len()],
            vdevs: Vec::new(),
            tables: ReadTables::default(),
            parts: 0.0,
            cycles: 0.0,
            txg_cycles: 0.0,
            queued_bytes: 0.0,
            filled: 0.0,
            discarded: 0.0,
            fill_cycles: (0.0, 0.0),
        }
    }

    /// The request's pieces that run at once: `parts` sums each vdev's share of the request,
    /// so a stripe of n adds n times 1/n, which rounds to either side of a whole number; within
    /// 1e-9 of one it is that number, so one piece never passes for several.
    pub(super) fn pieces(&self) -> f64 {
        let whole = self.parts.round();
        if (self.parts - whole).abs() < 1e-9 {
            whole
        } else {
            self.parts
        }
    }

    /// Disk `leaf`'s load, noting the vdev it serves first.
    pub(super) fn disk(&mut self, leaf: usize, vdev: &str) -> &mut DiskLoad {
        if self.vdev_of_disk[leaf].is_empty() {
            self.vdev_of_disk[leaf] = vdev.to_string();
        }
        &mut self.disks[leaf]
    }

    pub(super) fn device_bytes(&self) -> f64 {
        self.disks
            .iter()
            .map(|d| d.read_bytes + d.write_bytes)
            .sum()
    }
}
