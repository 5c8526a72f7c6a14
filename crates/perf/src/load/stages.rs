//! A workload on the pool with what every stage decided about it (the record size, the
//! compressed size, the ARC's hits, the ZIL's commits, the CPU's costs per byte), and the
//! assembly of a job's loads: each vdev's reads and writes, the log devices' commits, then
//! the CPU's and memory's shares.

use super::records::Records;
use super::work::Work;
use super::{Loads, MAX_POPULATION};
use crate::abd;
use crate::app::{self, Calls};
use crate::arc;
use crate::arc_evict;
use crate::arc_target;
use crate::compress::psize;
use crate::constants::Constants;
use crate::cpu::{self, CpuWork, COPY_BYTE};
use crate::icp;
use crate::indirect;
use crate::l2arc;
use crate::leaf::DiskTiming;
use crate::lz4_decoder;
use crate::prefetch_fill;
use crate::random_device;
use crate::redirty;
use crate::release::Release;
use crate::txg;
use crate::txg_close::{self, Fill};
use crate::vdev::{vdevs, Vdev};
use crate::zil::{self, SyncWrites};
use crate::zio::{fanout, Fanout, Op};
use crate::zvol;
use crate::PerfError;
use model::dataset::{Compression, PrimaryCache};
use model::hardware::{DiskModel, Medium};
use model::workload::{Access, Data, Workload};
use model::{Dataset, System, VdevClass, VdevType};

/// A workload on the pool, with what every stage decided about it.
pub(super) struct Stages<'a> {
    pub system: &'a System,
    pub w: &'a Workload,
    pub release: &'a Release,
    pub constants: &'a Constants,
    pub vdevs: Vec<Vdev>,
    /// Log devices, if the pool has any.
    pub logs: Vec<Vdev>,
    pub recordsize: u64,
    /// Bytes a record occupies after compression (0: a hole).
    pub psize: u64,
    /// Share of block reads the ARC serves.
    pub hit: f64,
    /// Share of block reads the cache devices serve, and those devices as one-disk vdevs.
    pub l2hit: f64,
    pub cache: Vec<Vdev>,
    pub sync: Option<SyncWrites>,
    checksum_byte: f64,
    /// Cycles per byte native encryption adds to each block written and read (icp.rs).
    cipher_byte: f64,
    compress_byte: (f64, f64),
    /// Bytes copied into a dbuf's buffer per byte of a record taken from the disks or the
    /// ARC, and the share of the ARC's hits that take a new buffer (abd.rs).
    fill: f64,
    new_buffers: f64,
    /// Whether each buffer a read brings in waits for the ARC's eviction thread (arc_evict.rs;
    /// `evicting`), records not holes.
    evicting: bool,
    /// Metadata bytes the txg writes per data byte.
    pub meta: f64,
    /// Share of the job's random writes that dirty a record anew in their txg (redirty.rs).
    pub anew: f64,
}

/// One top-level vdev's part of a job: how a record fans out over its children to be read
/// and written, the part of its leaves' stroke the data lies on, and the records it reads
/// and writes per job.
pub(super) struct Share<'v> {
    pub v: &'v Vdev,
    pub fr: Fanout,
    pub fw: Fanout,
    pub span: f64,
    pub reads: f64,
    pub writes: f64,
}

/// Metadata the txg writes per data byte: a stream's block pointers, or, for records written
/// at random over a span the workload states, the level-1 blocks a txg's records dirty
/// (indirect.rs). A txg holds the records of what the write throttle lets the application run
/// ahead (dbuf_dirty counts each dirty record whole). Without a stated span (a zvol or file
/// whose size fio takes from the device) the stream's share stands.
fn metadata_per_data_byte(system: &System, w: &Workload, at: (&Release, Fill), rs: u64) -> f64 {
    let release = at.0;
    match w.total_bytes() {
        Some(span) if w.access.writes() && !w.access.is_sequential() => {
            let per_txg = records_per_txg(system, at, rs);
            let ibs = indirect::indirect_bytes(release.zfs.openzfs_line());
            indirect::random_metadata_per_data_byte(span as f64, rs, per_txg, ibs)
        }
        _ => txg::metadata_per_data_byte(rs),
    }
}

/// Records of `rs` bytes a txg holds dirty when it closes (txg_close.rs: the sync threshold
/// where the pool keeps up, what the write throttle lets the application run ahead where it
/// does not; dbuf_dirty counts each dirty record whole).
fn records_per_txg(system: &System, (release, fill): (&Release, Fill), rs: u64) -> f64 {
    txg_close::txg_bytes(release, system.host.ram_bytes, fill) / rs as f64
}

/// Share of the job's random writes that dirty a record anew in their txg (redirty.rs), the
/// txg holding what `records_per_txg` gives.
fn anew_share(system: &System, w: &Workload, at: (&Release, Fill), rs: u64) -> f64 {
    let per_txg = records_per_txg(system, at, rs);
    redirty::anew_share(w.total_bytes(), w.block_size, rs, per_txg)
}

/// Cycles per byte to compress and to decompress a record of `sizes` (recordsize, psize):
/// the algorithm's rates for the data, decompression at the release's lz4 decoder's
/// (lz4_decoder.rs).
fn compress_byte(
    algorithm: Compression,
    data: Data,
    ds: &Dataset,
    release: &Release,
    (rs, psize): (u64, u64),
) -> (f64, f64) {
    let (compress, modern) = cpu::compress_byte(algorithm, data, ds.compression_ratio);
    let decode = lz4_decoder::decode_byte(algorithm, release, rs, psize, modern);
    (compress, decode)
}

/// Whether buffers a read brings in wait for the ARC's eviction thread: OpenZFS 2's thread,
/// the dataset's data cached, an ARC of `capacity` bytes full (a data set larger than it holds,
/// or not stated: the default, larger than memory).
fn evicting(w: &Workload, release: &Release, ds: &Dataset, capacity: f64) -> bool {
    let full = w.total_bytes().is_none_or(|d| d as f64 > capacity);
    full && arc_evict::applies(release) && ds.primarycache == PrimaryCache::All
}

impl<'a> Stages<'a> {
    pub(super) fn new(
        system: &'a System,
        w: &'a Workload,
        release: &'a Release,
        constants: &'a Constants,
        (l2_fed, fill): (f64, Fill),
    ) -> Result<Stages<'a>, PerfError> {
        let ds = system
            .pool
            .datasets
            .first()
            .ok_or_else(|| PerfError::System("the pool has no dataset".into()))?;
        let algorithm = cpu::algorithm(ds.compression, release);
        let sector = 1u64 << system.pool.ashift;
        let capacity = arc::data_capacity(system, release, constants);
        let recordsize = zvol::block_size(w, &system.host.zfs, ds);
        let data = random_device::stored_data(w, release);
        let psize = psize(recordsize, data, ds.compression_ratio, algorithm, sector);
        let (data_vdevs, logs) = classes(system, psize, ds.special_small_blocks)?;
        // primarycache=metadata or none: the ARC keeps none of the dataset's data, and the
        // L2ARC, fed from the ARC, none either.
        let (hit, l2hit) = match ds.primarycache {
            PrimaryCache::All => {
                let sizes = (capacity, cache_bytes(system));
                l2arc::shares(w, release, sizes, (recordsize, psize), l2_fed).unwrap_or((
                    arc::hit_ratio(w, release, capacity, constants.arc_scan_retention()),
                    0.0,
                ))
            }
            PrimaryCache::Metadata | PrimaryCache::None => (0.0, 0.0),
        };
        Ok(Stages {
            system,
            w,
            release,
            constants,
            recordsize,
            psize,
            hit,
            l2hit,
            cache: cache_vdevs(system),
            sync: zil::sync_writes(w, ds, recordsize, release, !logs.is_empty()),
            checksum_byte: cpu::checksum_byte(ds.checksum, release, &system.host.cpu),
            cipher_byte: icp::cipher_byte(ds.encryption, release, &system.host.cpu),
            compress_byte: compress_byte(algorithm, w.data, ds, release, (recordsize, psize)),
            fill: abd::fill_copies(release, recordsize, psize),
            new_buffers: abd::new_buffer_share(
                arc_target::target_bytes(release, system.host.ram_bytes, w.total_bytes()),
                w.total_bytes(),
                w.access.is_sequential(),
            ),
            evicting: evicting(w, release, ds, capacity) && psize > 0,
            meta: metadata_per_data_byte(system, w, (release, fill), recordsize),
            anew: anew_share(system, w, (release, fill), recordsize),
            vdevs: data_vdevs,
            logs,
        })
    }

    /// A job's loads. A stream with synchronous writes, or one whose writes wait for the
    /// records they change part of (`overwrite_reads`), waits on each request: it is served
    /// like random I/O, a job per request, its records the request's share of one.
    pub(super) fn loads(&self) -> Loads {
        let seq = self.w.access.is_sequential() && self.sync.is_none() && !self.overwrite_reads();
        let rec = self.records(seq);
        let mut calls = Calls::of_request(self.w, self.release, self.recordsize);
        if matches!(self.w.access, Access::Random { .. }) {
            calls.dirtied_anew = self.anew;
        }
        let mut work = Work::new(self.system);
        for v in &self.vdevs {
            self.vdev(&mut work, v, &rec, seq, calls.writes);
        }
        for v in &self.logs {
            self.log_device(&mut work, v, calls.writes);
        }
        if self.l2hit > 0.0 {
            self.cache_reads(&mut work);
        }
        let (compress, decompress) = self.compress_byte;
        let (psize, rs) = (self.psize as f64, self.recordsize as f64);
        work.cycles += rec.read * (psize * self.checksum_byte + rs * decompress);
        self.dbuf_fills(&mut work, &rec, seq);
        // A block dmu_sync put in place is checksummed (and compressed) on its way there, in
        // the writer's commit; the txg's write of it moves nothing (`in_place`).
        let sealed =
            rec.written * (psize * (self.checksum_byte + self.cipher_byte) + rs * compress);
        let in_place = self.in_place();
        work.cycles += sealed * in_place;
        work.txg_cycles += sealed * (1.0 - in_place);
        self.gather(work, &rec, &calls, seq)
    }

    /// The share of the written records the txg writes nothing of: an indirect synchronous
    /// write's blocks, which dmu_sync put in place before the commit. The txg's write of such
    /// a dbuf takes the block pointer dmu_sync gave it (dbuf_write with DR_OVERRIDDEN ->
    /// zio_write_override) and runs the interlock pipeline alone, no allocation, checksum or
    /// I/O (zio_write_bp_init's io_bp_override). The blocks' own writes and zios are the
    /// commit's (load/log.rs).
    fn in_place(&self) -> f64 {
        match self.sync {
            Some(sync) if sync.indirect => 1.0,
            _ => 0.0,
        }
    }

    /// What the records a job reads cost on their way into dbufs (abd.rs), on whichever
    /// thread makes the buffer: each copied from its scatter list, those from the disks and
    /// the ARC's hits that take a new buffer, and each decrypted as its buffer is made
    /// (arc_buf_fill -> arc_fill_hdr_crypt, arc.c) where the header holds it encrypted: every
    /// block from the disks, and of the hits the records the run wrote (arc_write_ready keeps
    /// the encrypted copy alone): a stream reading them back, a partial write's read of the
    /// record it changes (dbuf_will_dirty -> dbuf_read), which also decompresses it.
    fn dbuf_fills(&self, work: &mut Work, rec: &Records, seq: bool) {
        let hits = self.arc_records(seq);
        let taken = hits.read * self.new_buffers;
        let (rs, psize) = (self.recordsize as f64, self.psize as f64);
        work.filled = (rec.read + taken) * rs * self.fill;
        let copy = rs * self.fill * COPY_BYTE;
        let cipher = psize * self.cipher_byte;
        let from_disks = rec.read * (copy + cipher);
        let rmw = hits.rmw * self.new_buffers;
        let written = if seq && self.w.access.reads_stream() {
            taken
        } else {
            rmw
        };
        let modified = if psize > 0.0 { rmw } else { 0.0 };
        let from_arc = taken * copy + written * cipher + modified * rs * self.compress_byte.1;
        let discarded = self.discarded_fills(work, rec, seq);
        work.fill_cycles = if seq {
            (from_disks + from_arc, discarded)
        } else {
            (from_arc, from_disks)
        };
    }

    /// Reference cycles per job of the buffers a stream's prefetch reads fill in their
    /// completions and throw away (prefetch_fill.rs): each record from the disks copied out of
    /// its scatter list, decrypted and decompressed as the reader's own fill will do again.
    fn discarded_fills(&self, work: &mut Work, rec: &Records, seq: bool) -> f64 {
        if !seq || !prefetch_fill::discards(self.release) {
            return 0.0;
        }
        let (rs, psize) = (self.recordsize as f64, self.psize as f64);
        work.discarded = rec.read * rs * self.fill;
        // A compressed record is decompressed into the buffer instead of copied.
        let decompress = if self.fill > 0.0 {
            0.0
        } else {
            rs * self.compress_byte.1
        };
        rec.read * (rs * self.fill * COPY_BYTE + psize * self.cipher_byte + decompress)
    }

    /// `v`'s part of a job: a stream's records or a random request's, and the zios and
    /// parity they cost the CPU.
    fn vdev(&self, work: &mut Work, v: &Vdev, rec: &Records, seq: bool, writes: f64) {
        let zio = self.constants.zio_cycles(self.release.era);
        let n = v.leaves.len() as u32;
        let ashift = self.system.pool.ashift;
        let fr = fanout(v.vtype, n, self.psize.max(1), ashift, Op::Read);
        let fw = fanout(v.vtype, n, self.psize.max(1), ashift, Op::Write);
        let (reads, written) = if self.psize == 0 {
            (0.0, 0.0)
        } else {
            // The txg still writes the metadata of a block dmu_sync put in place (its indirect
            // blocks: `meta` per data byte), not the block.
            let txg = rec.written * (1.0 - self.in_place() / (1.0 + self.meta));
            (rec.read * v.share, txg * v.share)
        };
        let span = self.span(v, &fw);
        let share = Share {
            v,
            fr,
            fw,
            span,
            reads,
            writes: written,
        };
        if seq {
            work.queued_bytes += self.stream(work, &share);
        } else {
            let wait = self.waited(v, writes, false);
            work.cycles += wait.zios * zio;
            self.random(work, &share, rec, &wait);
        }
        let zios = |f: &Fanout| f.upper_zios + f.ios_per_child * f64::from(n);
        work.cycles += reads * zios(&fr) * zio;
        work.txg_cycles += written * zios(&fw) * zio;
        let parity = match v.vtype {
            VdevType::Raidz { parity } | VdevType::Draid { parity, .. } => parity,
            _ => 0,
        };
        let parity_byte = cpu::parity_byte(parity, self.release, &self.system.host.cpu);
        let psize = self.psize as f64;
        work.txg_cycles += written * psize * parity_byte;
        // dmu_sync's blocks get their parity on the commit's path.
        if self.psize > 0 {
            work.cycles += rec.written * self.in_place() * v.share * psize * parity_byte;
        }
    }

    /// The L2ARC's reads on the cache devices. A request reads from them or from the pool,
    /// never both: each side's parts count at its share of the requests that leave the ARC.
    fn cache_reads(&self, work: &mut Work) {
        let pool_parts = work.parts;
        work.parts = 0.0;
        let l2 = self.cache_records();
        for v in &self.cache {
            self.vdev(work, v, &l2, false, 0.0);
        }
        let miss = 1.0 - self.hit - self.l2hit;
        let to_l2 = self.l2hit / (self.l2hit + miss).max(1e-12);
        work.parts = pool_parts * (1.0 - to_l2) + work.parts * to_l2;
    }

    /// The application's bytes read and written per job: a stream's record (a mix's shared
    /// between its read and write streams as its calls are), or a request's.
    fn user_bytes(&self, calls: &Calls, seq: bool) -> (f64, f64) {
        let rs = self.recordsize as f64;
        if seq {
            (calls.reads * rs, calls.writes * rs)
        } else {
            let bs = self.w.block_size as f64;
            (calls.reads * bs, calls.writes * bs)
        }
    }

    /// The loads from the work gathered: the application's bytes, requests and cycles, the
    /// bytes crossing memory and the jobs in flight.
    fn gather(&self, work: Work, rec: &Records, calls: &Calls, seq: bool) -> Loads {
        let w = self.w;
        let rs = self.recordsize as f64;
        // A stream's job is a record: recordsize / bs requests of it; otherwise a request.
        let requests = if seq { rs / w.block_size as f64 } else { 1.0 };
        let (user_read, user_write) = self.user_bytes(calls, seq);
        let (own_cycles, fill_kernel) = work.fill_cycles;
        let app_cycles = own_cycles + self.call_cycles(calls, requests);
        let device_bytes = work.device_bytes();
        let admitted = self.arc_admitted(&work, rec);
        let parts = work.pieces();
        let population = if seq {
            self.stream_population(work.queued_bytes, device_bytes)
        } else {
            self.outstanding().max(self.writeback_in_flight(rec))
        };
        let loads = Loads {
            vdev_of_disk: work.vdev_of_disk,
            vdevs: work.vdevs,
            disks: work.disks,
            cpu: CpuWork {
                cycles: work.cycles + app_cycles + fill_kernel,
                txg_cycles: work.txg_cycles,
                app_cycles,
                app_threads: w.threads,
                app_wait_s: requests * calls.wait_s(self.constants)
                    + calls.writes * (self.commit_wait_s() + self.commit_serial_s(parts)),
                app_in_cycle: !seq,
                zil_writer_cycles: calls.writes * self.commit_blocks_cycles(),
            },
            // Bonnie reports a rewrite by the bytes rewritten, each read once and written once.
            user_bytes: if w.access == Access::Rewrite {
                rs
            } else {
                user_read + user_write
            },
            user_read_bytes: user_read,
            user_write_bytes: user_write,
            memory_bytes: device_bytes
                + 3.0 * (user_read + user_write)
                + 2.0 * (work.filled + work.discarded)
                + rec.written * self.psize as f64,
            requests,
            population: population.clamp(1, MAX_POPULATION),
            outstanding: self.outstanding(),
            random: !w.access.is_sequential(),
            arc_hit: self.hit,
            arc_admitted_bytes: admitted,
            start_s: if seq { self.start_s() } else { 0.0 },
        };
        if seq {
            loads
        } else {
            loads.split(parts)
        }
    }

    /// Bytes per job a full ARC admits for reads (arc_evict.rs): the header's data of each
    /// record read from the disks and each new dbuf buffer; writes are not counted here.
    fn arc_admitted(&self, work: &Work, rec: &Records) -> f64 {
        if self.evicting {
            rec.read * self.psize as f64 + work.filled
        } else {
            0.0
        }
    }

    /// Reference cycles per job the application's threads spend in their calls.
    fn call_cycles(&self, calls: &Calls, requests: f64) -> f64 {
        // A mix's writes land in its file as laid out: fio writes the file whole before a job
        // that reads (filesetup.c, extend_file).
        let overwrites = matches!(
            self.w.access,
            Access::Rewrite
                | Access::Overwrite
                | Access::Random { .. }
                | Access::Seeks { .. }
                | Access::SeqMix { .. }
        );
        requests * calls.cycles(self.release, self.constants, overwrites)
    }

    /// The fraction of each leaf's stroke the data lies on: from the outer edge (an empty pool
    /// allocates the outer metaslabs first), or from where the pool's earlier data ends, as
    /// far as the data set reaches; random requests over an unknown data set, and a run on a
    /// pool whose data with its holes spans every disk, range over the whole disk.
    pub(super) fn span(&self, v: &Vdev, fw: &Fanout) -> f64 {
        let cap = self.system.disks[v.leaves[0]].model.capacity_bytes as f64;
        let Some(from) = free_from(self.w.pool_fill) else {
            // Its free space is the holes among its data, over the whole stroke.
            return 1.0;
        };
        let free = (1.0 - from).max(1e-6);
        match self.w.total_bytes() {
            Some(d) => {
                let records = d as f64 / self.recordsize as f64;
                (records * fw.bytes_per_child * v.share / cap).clamp(1e-6, free)
            }
            None if self.w.access.is_sequential() => 0.0,
            None => 1.0,
        }
    }

    /// Leaves of the vdevs that take the job's records.
    pub(super) fn data_leaves(&self) -> u32 {
        self.vdevs.iter().map(|v| v.leaves.len() as u32).sum()
    }

    /// Requests the application keeps in flight at the file system.
    pub(super) fn outstanding(&self) -> u32 {
        app::outstanding(self.w, self.release, self.recordsize)
    }

    /// The largest I/O the vdev queue aggregates neighbours into on `v`'s leaves.
    pub(super) fn aggregation(&self, v: &Vdev) -> u64 {
        if v.rotating {
            self.release.aggregation_hdd
        } else {
            self.release.aggregation_ssd
        }
    }

    /// A leaf's timing, the run's data where the pool's free space begins (`free_from`), or
    /// from the outer edge where that free space is holes all over the disk.
    pub(super) fn timing<'m>(&self, model: &'m DiskModel) -> DiskTiming<'m> {
        DiskTiming::new(model, self.constants.disk_command_overhead_s())
            .starting_at(free_from(self.w.pool_fill).unwrap_or(0.0))
    }
}

/// Where the free space of a pool `fill` full begins on each disk, as a fraction from the
/// outer edge: past the span its data and the holes among it take (`model::pool::data_span`;
/// the allocator prefers untouched metaslabs, their free segments the largest); `None` once
/// that span is the whole disk and the free space is the holes all over it.
fn free_from(fill: f64) -> Option<f64> {
    let spanned = model::pool::data_span(fill);
    (spanned < 1.0).then_some(spanned)
}

/// Raw bytes of the pool's cache devices.
fn cache_bytes(system: &System) -> f64 {
    l2arc::devices(system)
        .into_iter()
        .map(|i| system.disks[i].model.capacity_bytes as f64)
        .sum()
}

/// The cache devices as one-disk vdevs sharing the L2ARC's reads alike (l2arc_write_buffers
/// feeds them in turn, l2arc_dev_get_next).
fn cache_vdevs(system: &System) -> Vec<Vdev> {
    let leaves = l2arc::devices(system);
    let n = leaves.len() as f64;
    leaves
        .into_iter()
        .enumerate()
        .map(|(k, leaf)| Vdev {
            vtype: VdevType::Disk,
            leaves: vec![leaf],
            share: 1.0 / n,
            name: format!("cache-{k}"),
            rotating: system.disks[leaf].model.medium == Medium::Hdd,
        })
        .collect()
}

/// The vdevs that take a job's records and those that take its log blocks.
/// spa_preferred_class: a block of at most special_small_blocks bytes goes to the special class
/// where the pool has one (metadata always would: not modelled). The ZIL writes to the log
/// class; from OpenZFS 2.4, without log devices, to the special class (zil_alloc falls back
/// to it before the normal class).
fn classes(
    system: &System,
    psize: u64,
    special_small_blocks: u64,
) -> Result<(Vec<Vdev>, Vec<Vdev>), PerfError> {
    let normal = vdevs(system, VdevClass::Normal)?;
    if normal.is_empty() {
        return Err(PerfError::System("the pool has no data vdevs".into()));
    }
    let special = vdevs(system, VdevClass::Special)?;
    let mut logs = vdevs(system, VdevClass::Log)?;
    if logs.is_empty() && system.host.zfs.at_least(2, 4) {
        logs = special.clone();
    }
    let small = psize > 0 && psize <= special_small_blocks;
    let data = if small && !special.is_empty() {
        special
    } else {
        normal
    };
    Ok((data, logs))
}

#[cfg(test)]
mod tests {
    use crate::abd;
    use crate::constants::Constants;
    use crate::cpu::{CpuWork, COPY_BYTE};
    use crate::icp;
    use crate::load::{loads, Loads};
    use crate::testkit::{fast_link, release, system};
    use model::workload::Workload;

    /// The CPU work per job of `workload` on a stripe of four, its dataset encrypted with
    /// `encryption`, and the share of block reads the ARC served.
    fn cpu_work(encryption: &str, workload: &str) -> (CpuWork, f64) {
        let l = loads_on("2.2.9", encryption, workload);
        (l.cpu, l.arc_hit)
    }

    /// The loads per job of `workload` on `zfs` and a stripe of four, encrypted or not.
    fn loads_on(zfs: &str, encryption: &str, workload: &str) -> Loads {
        let mut s = system("stripe-4", 4, 150.0, fast_link());
        s.pool.datasets[0].encryption = encryption.parse().unwrap();
        let w = Workload::parse(workload).unwrap();
        loads(&s, &w, (&release(zfs), 1.0), &Constants::priors()).unwrap()
    }

    /// The writer's cycles per job on `zfs` for `workload`, the dataset lz4-compressed or not.
    fn writer_cycles(zfs: &str, compression: &str, workload: &str) -> f64 {
        let mut s = system("stripe-4", 4, 150.0, fast_link());
        s.pool.datasets[0].compression = compression.parse().unwrap();
        let w = Workload::parse(workload).unwrap();
        let l = loads(&s, &w, (&release(zfs), 1.0), &Constants::priors()).unwrap();
        l.cpu.app_cycles
    }

    /// A 4 KiB write into a 128 KiB lz4 record of which it wrote 7% (the rest holes) takes the
    /// record from the ARC and decompresses it on the writer's thread: the 2013 lz4 decoder
    /// of 2.1 at its README's 1.48 cycles a byte, 2.2's lz4 1.9.3 decoder at the content's
    /// rate (zeros 0.5 a byte, random blocks copied out of a record lz4 gave up on: 0).
    #[test]
    fn a_partial_write_decodes_its_lz4_record_at_the_releases_decoder_rate() {
        let w = "fio-randwrite:bs=4K,size=4G,data=sparse-7";
        let taken = |zfs: &str| {
            let arc = crate::arc_target::target_bytes(&release(zfs), 64 << 30, Some(4 << 30));
            let anew = crate::redirty::anew_share(Some(4 << 30), 4096, 128 << 10, 0.6 * 32768.0);
            abd::new_buffer_share(arc, Some(4 << 30), false) * anew * f64::from(128u32 << 10)
        };
        let old = writer_cycles("2.1", "lz4", w) - writer_cycles("2.1", "off", w);
        let new = writer_cycles("2.2.9", "lz4", w) - writer_cycles("2.2.9", "off", w);
        // Uncompressed, the record is copied out of its scatter list instead (0.5 a byte).
        let expect_old = taken("2.1") * (2.7e9 / 1.82e9 - crate::cpu::COPY_BYTE);
        let expect_new = taken("2.2.9") * (0.93 * 0.5 - crate::cpu::COPY_BYTE);
        assert!(
            (old - expect_old).abs() < 1e-6 * expect_old,
            "{old} {expect_old}"
        );
        assert!(
            (new - expect_new).abs() < 1e-6 * expect_new.abs(),
            "{new} {expect_new}"
        );
    }

    /// An indirect synchronous write (logbias=throughput) puts its block in place with
    /// dmu_sync before the commit; the txg's write of that dbuf takes dmu_sync's block pointer
    /// and moves nothing. On a stripe of four, a 128 KiB write into 128 KiB records moves its
    /// 128 KiB once, and the 4 KiB log block (one 192-byte record), where a buffered write
    /// moves only the txg's copy; the ZIL's writing thread sets up one zio per block.
    #[test]
    fn an_indirect_sync_write_moves_its_block_once() {
        let mut s = system("stripe-4", 4, 150.0, fast_link());
        s.pool.datasets[0].logbias = model::dataset::Logbias::Throughput;
        let c = Constants::priors();
        let r = release("0.6.5");
        let moved = |spec: &str| {
            let l = loads(&s, &Workload::parse(spec).unwrap(), (&r, 1.0), &c).unwrap();
            let bytes: f64 = l.disks.iter().map(|d| d.write_bytes).sum();
            // Per request: a request served as pieces at once divides each job's work.
            (bytes / l.requests, l.cpu.zil_writer_cycles / l.requests)
        };
        let (buffered, none) = moved("fio-randwrite:bs=128K,size=1T");
        let (synced, writer) = moved("fio-randwrite:bs=128K,size=1T,sync=on");
        // The txg's metadata (indirect blocks) is written either way.
        assert!(
            (synced - buffered - 4096.0).abs() < 1e-6,
            "{synced} {buffered}"
        );
        assert_eq!(none, 0.0);
        let zio = c.zio_cycles(r.era);
        assert!((writer - zio).abs() < 1e-6 * zio, "{writer}");
        // 1 MiB is eight records: eight zios on the writer's thread.
        let (_, eight) = moved("fio-randwrite:bs=1M,size=1T,sync=on");
        assert!((eight - 8.0 * zio).abs() < 1e-6 * zio, "{eight}");
    }

    /// One rule for the decryption of a block read from the disks: it runs where the block's
    /// buffer is made. A random reader's demand miss is decrypted by arc_read_done on the
    /// zio's completion thread: the reader's own cycles do not change, the kernel's grow by
    /// the cipher over every record that missed the ARC. A stream's prefetched records are
    /// decrypted by the reader that takes them: all of it on the reader's thread.
    #[test]
    fn decryption_runs_where_the_buffer_is_made() {
        let cipher = icp::PER_BLOCK_BYTE * f64::from(128u32 << 10);
        let random = "fio-randread:bs=128K,size=1T,qd=32";
        let (plain, _) = cpu_work("off", random);
        let (ccm, hit) = cpu_work("aes-256-ccm", random);
        assert!(hit < 0.1, "{hit}");
        assert_eq!(ccm.app_cycles, plain.app_cycles);
        let kernel = ccm.cycles - plain.cycles;
        assert!(
            (kernel - (1.0 - hit) * cipher).abs() < 1e-6 * cipher,
            "{kernel}"
        );

        // A stream's reader decrypts each record as its hit makes the buffer; on 2.3.1 nothing
        // else does. On 2.2.9 the prefetch's completion also decrypts it into the buffer it
        // throws away (prefetch_fill.rs).
        let stream = "fio-read:bs=1M,size=1T,cache=cold";
        for (zfs, fills) in [("2.3.1", 1.0), ("2.2.9", 2.0)] {
            let plain = loads_on(zfs, "off", stream).cpu;
            let ccm = loads_on(zfs, "aes-256-ccm", stream).cpu;
            let reader = ccm.app_cycles - plain.app_cycles;
            assert!((reader - cipher).abs() < 1e-6 * cipher, "{zfs}: {reader}");
            let all = ccm.cycles - plain.cycles;
            assert!((all - fills * cipher).abs() < 1e-6 * cipher, "{zfs}: {all}");
        }
    }

    /// 2.1.0-2.3.0 copy each record a stream reads from the disks into a buffer the prefetch
    /// throws away: two more bytes of memory traffic per byte (the scatter list read, the
    /// buffer written) and one more copy on the completions, none on the reader's thread;
    /// 2.3.1 does not (prefetch_fill.rs).
    #[test]
    fn a_prefetch_fills_a_buffer_it_throws_away_until_2_3_1() {
        let stream = "fio-read:bs=1M,size=1T,cache=cold";
        let (old, new) = (
            loads_on("2.3", "off", stream),
            loads_on("2.3.1", "off", stream),
        );
        // A stream's job is one record: the test system's 128 KiB.
        let record = f64::from(128u32 << 10);
        assert_eq!(old.memory_bytes - new.memory_bytes, 2.0 * record);
        assert_eq!(old.cpu.app_cycles, new.cpu.app_cycles);
        let copy = old.cpu.cycles - new.cpu.cycles;
        assert!((copy - record * COPY_BYTE).abs() < 1e-6 * record, "{copy}");
        // Random reads are not prefetched.
        let random = "fio-randread:bs=128K,size=1T,qd=32";
        let (old, new) = (
            loads_on("2.3", "off", random),
            loads_on("2.3.1", "off", random),
        );
        assert_eq!(old.memory_bytes, new.memory_bytes);
    }

    /// A 4 KiB write into a 128 KiB record the run wrote and its txg does not hold dirty reads
    /// the record first (dbuf_will_dirty -> dbuf_read): a 4 GiB file stays in the ARC, held encrypted, so each
    /// write whose dbuf left the dbuf cache (a 32nd of the ARC's target, grown to the 4 GiB the
    /// file fills: arc_target.rs) decrypts the whole record on the writer's thread as
    /// arc_read's hit makes its buffer.
    #[test]
    fn a_partial_write_decrypts_its_record_on_the_writers_thread() {
        let w = "fio-randwrite:bs=4K,size=4G";
        let (plain, _) = cpu_work("off", w);
        let (ccm, hit) = cpu_work("aes-256-ccm", w);
        assert_eq!(hit, 1.0);
        let arc = crate::arc_target::target_bytes(&release("2.2.9"), 64 << 30, Some(4 << 30));
        let taken = abd::new_buffer_share(arc, Some(4 << 30), false);
        assert_eq!(
            taken, 0.96875,
            "128 MiB of the 4 GiB file stays in the dbuf cache"
        );
        // Only a write that dirties its record anew in the txg reads it (redirty.rs): 0.66423
        // of them, a txg holding 2.4 GiB of the file's 4 GiB.
        let anew = crate::redirty::anew_share(Some(4 << 30), 4096, 128 << 10, 0.6 * 32768.0);
        assert!((anew - 0.66423).abs() < 1e-5, "{anew}");
        let cipher = icp::PER_BLOCK_BYTE * f64::from(128u32 << 10);
        let writer = ccm.app_cycles - plain.app_cycles;
        assert!(
            (writer - taken * anew * cipher).abs() < 1e-6 * cipher,
            "{writer}"
        );
    }
}
