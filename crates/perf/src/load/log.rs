//! The ZIL's writes a synchronous writer waits for: each commit's log block, on the pool's
//! vdevs or on a separate log device, and for indirect writes (zfs_log_write with
//! WR_INDIRECT) the record written in place first (dmu_sync).

use super::stages::Stages;
use super::work::Work;
use crate::vdev::Vdev;
use crate::zil::SyncWrites;
use crate::zil_commit;
use crate::zio::{fanout, Fanout, Op};

/// Writes a writer waits for per job on one vdev (the ZIL's).
#[derive(Debug, Clone, Default)]
pub(super) struct Waited {
    /// Seconds per job: one leaf's service, the leaves working at once.
    pub seconds: f64,
    /// `seconds` with 1, 2, ... writers queued at the vdev, whose records share log blocks
    /// (`SyncWrites::batched`); empty where no batching applies.
    pub seconds_queued: Vec<f64>,
    pub bytes_per_leaf: f64,
    pub ops_per_leaf: f64,
    pub zios: f64,
}

impl Stages<'_> {
    /// What the ZIL makes a writer of `writes` requests per job wait for on `v` (the pool's
    /// normal vdevs when `log` is false, a separate log vdev when true): each commit's log
    /// block, unless a log device takes them, and for indirect writes the record written in
    /// place first. The leaves work at once, so the wait is one leaf's service. Without a log
    /// device the log blocks go to the pool's vdevs, and writers queued there share them as
    /// they would a log device's (zil_commit_writer takes every waiting writer's records).
    pub(super) fn waited(&self, v: &Vdev, writes: f64, log: bool) -> Waited {
        let Some(sync) = self.sync else {
            return Waited::default();
        };
        let mut out = self.waited_for(&sync, v, writes, log);
        if !log && self.logs.is_empty() {
            out.seconds_queued = self.batched_s(&sync, v, writes, log);
        }
        out
    }

    /// Seconds per job with 1, 2, ... writers queued at `v`: while one log block is in
    /// flight the writers that arrive queue their records (zil_commit_waiter) and the next
    /// to issue takes them all into one block (zil_commit_writer, zil_get_commit_list), up to
    /// zil_maxblocksize; empty where a record fills a block alone.
    fn batched_s(&self, sync: &SyncWrites, v: &Vdev, writes: f64, log: bool) -> Vec<f64> {
        match sync.most_batched() {
            1 => Vec::new(),
            most => (1..=most)
                .map(|j| self.waited_for(&sync.batched(j), v, writes, log).seconds)
                .collect(),
        }
    }

    /// `waited` for the commits `sync` describes.
    fn waited_for(&self, sync: &SyncWrites, v: &Vdev, writes: f64, log: bool) -> Waited {
        let n = v.leaves.len() as u32;
        let ashift = self.system.pool.ashift;
        let lead = self.timing(&self.system.disks[v.leaves[0]].model);
        let data = fanout(v.vtype, n, self.psize.max(1), ashift, Op::Write);
        let span = self.span(v, &data);
        let mut out = Waited::default();
        let mut add = |f: &Fanout, per_job: f64, service: &dyn Fn(f64) -> f64| {
            let size = f.bytes_per_child / f.ios_per_child.max(1e-9);
            out.seconds += per_job * service(size);
            out.bytes_per_leaf += per_job * f.bytes_per_child;
            out.ops_per_leaf += per_job * f.ios_per_child;
            out.zios += per_job * (f.upper_zios + f.ios_per_child * f64::from(n));
        };
        if log || self.logs.is_empty() {
            let lwb = fanout(v.vtype, n, sync.lwb_bytes as u64, ashift, Op::Write);
            let commits = writes * sync.commits_per_write * v.share;
            add(&lwb, commits, &|size| lead.sync_write_s(size, span));
        }
        if sync.indirect && !log {
            // dmu_sync: each block goes to its place before the commit that points to it,
            // a write's blocks together: the allocator lays them side by side, so a vdev
            // takes one positioning per write it holds blocks of, then their bytes.
            let blocks = writes * v.share * sync.blocks;
            let visits = writes * (v.share * sync.blocks).min(1.0);
            let each = data.bytes_per_child / data.ios_per_child.max(1e-9);
            let per_visit = each * blocks / visits.max(1e-12);
            out.seconds += visits * lead.random_io_s(per_visit, span, 1, true);
            out.bytes_per_leaf += blocks * data.bytes_per_child;
            out.ops_per_leaf += visits * data.ios_per_child;
            out.zios += blocks * (data.upper_zios + data.ios_per_child * f64::from(n));
        }
        out
    }

    /// Seconds one commit's log block takes to write and flush on the log device, else on
    /// the pool's first vdev (zl_last_lwb_latency).
    fn lwb_s(&self, sync: &SyncWrites) -> f64 {
        let v = self.logs.first().unwrap_or(&self.vdevs[0]);
        let n = v.leaves.len() as u32;
        let ashift = self.system.pool.ashift;
        let lead = self.timing(&self.system.disks[v.leaves[0]].model);
        let span = self.span(v, &fanout(v.vtype, n, self.psize.max(1), ashift, Op::Write));
        let lwb = fanout(v.vtype, n, sync.lwb_bytes as u64, ashift, Op::Write);
        lead.sync_write_s(lwb.bytes_per_child / lwb.ios_per_child.max(1e-9), span)
    }

    /// Seconds a writer waits per write request on the threads of its commits' path
    /// (zil_commit.rs), given the log block's write and flush.
    pub(super) fn commit_wait_s(&self) -> f64 {
        let Some(sync) = self.sync else {
            return 0.0;
        };
        sync.commits_per_write * zil_commit::wait_s(self.release, self.lwb_s(&sync))
    }

    /// Reference cycles per write request on the ZIL's writing thread: the thread that holds
    /// the log (zl_writer, zl_issuer_lock) takes each indirect record in turn and starts its
    /// block's write (zil_lwb_commit -> zfs_get_data -> dmu_sync -> arc_write, zio_nowait),
    /// a zio's setup each; the zios' own stages run on the taskqs (the CPU's station).
    pub(super) fn commit_blocks_cycles(&self) -> f64 {
        match self.sync {
            Some(sync) => sync.blocks * self.constants.zio_cycles(self.release.era),
            None => 0.0,
        }
    }

    /// Seconds per write request the writer waits for its commit after the request's data,
    /// where the request is served as `parts` pieces at once (load/mod.rs `split`): the pieces
    /// overlap, but the commit follows them all. zil_commit issues the log blocks and the
    /// dmu_sync writes of the request's blocks together and waits for the lot
    /// (zil_commit_writer, zio_wait on the lwbs), then flushes every vdev they wrote
    /// (zil_flush_vdevs, or zil_lwb_flush_vdevs from 0.8) before the writer returns. The wait
    /// goes on the writer's thread, whose station the pieces pass in turn; a closed network has
    /// no fork and join, so the pieces' leaf work still overlaps part of it. Where a request is
    /// one piece its leaves carry the commit in series already: nothing more.
    pub(super) fn commit_serial_s(&self, parts: f64) -> f64 {
        match self.sync {
            Some(sync) if parts > 1.0 => sync.commits_per_write * self.lwb_s(&sync),
            _ => 0.0,
        }
    }

    /// A separate log device's part of a job: the commits' log blocks on each of its leaves.
    /// With j writers queued there, their records share a log block (`batched_s`), so a
    /// leaf's seconds per job fall with its queue, as a disk's reordering does.
    pub(super) fn log_device(&self, work: &mut Work, v: &Vdev, writes: f64) {
        let Some(sync) = self.sync else {
            return;
        };
        let wait = self.waited_for(&sync, v, writes, true);
        let table = self.batched_s(&sync, v, writes, true);
        work.cycles += wait.zios * self.constants.zio_cycles(self.release.era);
        for &leaf in &v.leaves {
            let d = work.disk(leaf, &v.name);
            d.write_bytes += wait.bytes_per_leaf;
            d.write_ops += wait.ops_per_leaf;
            d.allow(self.release.sync_write_active);
            if !table.is_empty() {
                d.add(0.0, &table);
            } else {
                d.add(wait.seconds, &[]);
            }
        }
    }
}
