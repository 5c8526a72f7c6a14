//! A sequential stream's records on a vdev's leaves: prefetch's reads (a mirror's sides
//! passing over each other's runs) and the txg's writes, aggregated by the vdev queue into
//! large I/Os, with the seeks between a rewrite's reads and writes; and the records a stream
//! keeps in flight.

use super::stages::{Share, Stages};
use super::work::Work;
use crate::indirect;
use crate::leaf::load::DiskLoad;
use crate::leaf::DiskTiming;
use crate::txg;
use crate::zio::mirror::passed_share;
use crate::zio::{fanout, Op};
use model::workload::{Access, Target};
use model::VdevType;

impl Stages<'_> {
    /// A stream's per-record work on `s.v`'s leaves; returns the bytes its leaves' queues hold.
    pub(super) fn stream(&self, work: &mut Work, s: &Share) -> f64 {
        let v = s.v;
        let agg = self.aggregation(v) as f64;
        let n = v.leaves.len() as u32;
        let active = if s.writes > 0.0 {
            self.release.async_write_active
        } else {
            self.stream_read_active()
        };
        for &leaf in &v.leaves {
            let model = &self.system.disks[leaf].model;
            let t = self.timing(model);
            let d = work.disk(leaf, &v.name);
            let (mut read_s, mut write_s) = (0.0, 0.0);
            if s.reads > 0.0 {
                let bytes = s.reads * s.fr.bytes_per_child;
                let ops = bytes / s.fr.bytes_per_child.max(agg);
                d.read_bytes += bytes;
                d.read_ops += ops;
                d.allow(active);
                let rate = t.mean_rate(0.0, s.span, false);
                let media = if v.rotating && v.vtype == VdevType::Mirror {
                    let skip_s = t.seek_s(0.0, false) + t.revolution_s() / 2.0;
                    let block = s.fr.bytes_per_child * f64::from(n);
                    let runs = self.release.mirror_runs;
                    block * passed_share(runs, n, rate, skip_s, self.w.threads)
                } else {
                    s.fr.media_per_child
                };
                read_s = s.reads * media / rate + ops * t.command_latency_s(false);
            }
            if s.writes > 0.0 {
                write_s = self.txg_writes(d, s, &t);
            }
            let switching = if read_s > 0.0 && write_s > 0.0 && v.rotating {
                let turns = 1.0 / self.constants.rewrite_records_in_flight();
                txg::switching_s(&t, s.span, turns, read_s, write_s)
            } else {
                0.0
            };
            d.busy_s += read_s + write_s + switching;
        }
        if !v.rotating && s.writes <= 0.0 {
            // A solid-state leaf's station serves its active reads at once; the rest of what
            // prefetch issued waits in the vdev queue, in flight all the same.
            let reach = self.release.prefetch.blocks(self.recordsize);
            return f64::from(n) * s.fr.bytes_per_child * f64::from(reach);
        }
        f64::from(n * active) * agg
    }

    /// A leaf's share of the records the txg writes, metadata with them, as sequential
    /// writes (copy on write makes random record writes sequential too), and on a hard disk
    /// its share of each txg's commit; returns its seconds.
    pub(super) fn txg_writes(&self, d: &mut DiskLoad, s: &Share, t: &DiskTiming) -> f64 {
        let agg = self.aggregation(s.v) as f64;
        let per_record = s.fw.media_per_child * (1.0 + self.meta);
        let bytes = s.writes * per_record;
        let ops = bytes / (s.fw.bytes_per_child / s.fw.ios_per_child).max(agg);
        d.write_bytes += bytes;
        d.write_ops += ops;
        d.allow(self.release.async_write_active);
        let rate = t.mean_rate(0.0, s.span, true);
        let mut efficiency = txg::write_efficiency(s.v.rotating, self.constants);
        if s.v.rotating {
            // The txg's records, the vdev's share of them, this leaf's bytes of each.
            let txg = self.release.write_buffer_bytes(self.system.host.ram_bytes);
            let leaf_bytes = txg / self.recordsize as f64 * s.v.share * per_record;
            efficiency *= txg::data_share(leaf_bytes, rate, self.txg_commit_s(t, s.span));
        }
        bytes / (rate * efficiency) + ops * t.command_latency_s(true)
    }

    /// Seconds a hard disk spends once per txg away from the data: its commit, and on a
    /// one-vdev pool of a release that places ditto copies far apart, the trips to them.
    fn txg_commit_s(&self, t: &DiskTiming, span: f64) -> f64 {
        let far = self.vdevs.len() == 1 && txg::ditto_far(self.release.zfs.openzfs_line());
        txg::commit_s(t, span) + if far { txg::far_copies_s(t) } else { 0.0 }
    }

    /// Reads each leaf keeps active for the application's streams: prefetch's async reads,
    /// and the read each stream waits on, which arc_read raises to the sync class
    /// (zio_change_priority) — the streams' waits spread over the pool's leaves.
    fn stream_read_active(&self) -> u32 {
        let waited = self.streams().div_ceil(self.data_leaves().max(1));
        self.release.async_read_active + waited.min(self.release.sync_read_active)
    }

    /// The application's streams: one per thread, or one for threads sharing a file.
    fn streams(&self) -> u32 {
        if self.w.shared_file {
            1
        } else {
            self.w.threads
        }
    }

    /// Seconds a pass over a data set the ARC does not hold waits before prefetch runs ahead
    /// of its reader, one read after another: the indirect blocks from the dnode down to the
    /// first record's (indirect.rs), each anywhere on a disk (the heads are where the last
    /// work left them: an import's labels, another file), then prefetch's round trips
    /// (zfetch.rs), each a read of an access's blocks on the data's disks, the heads over the
    /// file but the sector a random part of a turn away. Streams of several threads ramp side
    /// by side: the pass waits once. O_DIRECT reads past the ARC (2.3+) are not prefetched.
    pub(super) fn start_s(&self) -> f64 {
        let w = self.w;
        let (Some(bytes), Some(v)) = (w.data_bytes, self.vdevs.first()) else {
            return 0.0;
        };
        if w.access != Access::SeqRead
            || self.hit >= 1.0
            || self.psize == 0
            || self.release.direct_reads(w)
        {
            return 0.0;
        }
        let t = self.timing(&self.system.disks[v.leaves[0]].model);
        let zvol = matches!(w.target, Target::Zvol { .. });
        let ibs = indirect::indirect_bytes(self.release.zfs.openzfs_line());
        let chain = indirect::levels_above_data(bytes, self.recordsize, zvol, ibs);
        let chain_s = t.random_io_s(ibs, 1.0, 1, false);
        let trips = self
            .release
            .prefetch
            .round_trips(w.block_size, self.recordsize);
        // A record's columns: each trip waits for the slowest of them.
        let n = v.leaves.len() as u32;
        let fr = fanout(v.vtype, n, self.psize, self.system.pool.ashift, Op::Read);
        let trip_s = t.random_io_s(fr.bytes_per_child, 0.0, fr.fork_width, false);
        f64::from(chain) * chain_s + f64::from(trips) * trip_s
    }

    /// Records a stream keeps in flight: what the leaves' queues hold in aggregated I/Os, up
    /// to what prefetch (or the syncing txg) has issued, for each of the application's streams.
    pub(super) fn stream_population(&self, queued: f64, device_bytes: f64) -> u32 {
        let blocks = ((queued / device_bytes.max(1.0)).round() as u32).max(1);
        let reach = self.release.prefetch.reach(self.w.access, self.recordsize);
        blocks
            .min(reach)
            .saturating_mul(self.streams())
            .max(self.outstanding())
    }
}
