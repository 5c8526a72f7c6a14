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
use crate::compress::psize;
use crate::constants::Constants;
use crate::cpu::{self, CpuWork, COPY_BYTE};
use crate::icp;
use crate::indirect;
use crate::l2arc;
use crate::leaf::DiskTiming;
use crate::release::Release;
use crate::txg;
use crate::vdev::{vdevs, Vdev};
use crate::zil::{self, SyncWrites};
use crate::zio::{fanout, Fanout, Op};
use crate::zvol;
use crate::PerfError;
use model::dataset::PrimaryCache;
use model::hardware::{DiskModel, Medium};
use model::workload::{Access, Workload};
use model::{System, VdevClass, VdevType};

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
    /// Metadata bytes the txg writes per data byte.
    pub meta: f64,
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
fn metadata_per_data_byte(system: &System, w: &Workload, release: &Release, rs: u64) -> f64 {
    match w.total_bytes() {
        Some(span) if w.access.writes() && !w.access.is_sequential() => {
            let per_txg = release.write_buffer_bytes(system.host.ram_bytes) / rs as f64;
            indirect::random_metadata_per_data_byte(span as f64, rs, per_txg)
        }
        _ => txg::metadata_per_data_byte(rs),
    }
}

impl<'a> Stages<'a> {
    pub(super) fn new(
        system: &'a System,
        w: &'a Workload,
        release: &'a Release,
        constants: &'a Constants,
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
        let psize = psize(recordsize, w.data, ds.compression_ratio, algorithm, sector);
        let (data_vdevs, logs) = classes(system, psize, ds.special_small_blocks)?;
        // primarycache=metadata or none: the ARC keeps none of the dataset's data, and the
        // L2ARC, fed from the ARC, none either.
        let (hit, l2hit) = match ds.primarycache {
            PrimaryCache::All => {
                let l2 = cache_bytes(system);
                l2arc::shares(w, release, capacity, l2, (recordsize, psize)).unwrap_or((
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
            compress_byte: cpu::compress_byte(algorithm, w.data, ds.compression_ratio),
            fill: abd::fill_copies(release, recordsize, psize),
            new_buffers: abd::new_buffer_share(
                release.arc_max_bytes(system.host.ram_bytes),
                w.total_bytes(),
                w.access.is_sequential(),
            ),
            meta: metadata_per_data_byte(system, w, release, recordsize),
            vdevs: data_vdevs,
            logs,
        })
    }

    /// A job's loads. A stream with synchronous writes waits on each request: it is served
    /// like random I/O, a job per request, its records the request's share of one.
    pub(super) fn loads(&self) -> Loads {
        let seq = self.w.access.is_sequential() && self.sync.is_none();
        let rec = self.records(seq);
        let calls = Calls::of_request(self.w, self.recordsize);
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
        // A block read from the disks stays encrypted in the ARC until a reader asks for it:
        // arc_read's hit path (a prefetched block) builds the reader's buffer on the reader's
        // thread, and arc_buf_fill -> arc_fill_hdr_crypt decrypts it there (arc.c).
        work.reader_cycles += rec.read * psize * self.cipher_byte;
        work.txg_cycles +=
            rec.written * (psize * (self.checksum_byte + self.cipher_byte) + rs * compress);
        self.gather(work, &rec, &calls, seq)
    }

    /// What the records a job reads cost on their way into dbufs (abd.rs): each copied from
    /// its scatter list, those from the disks and the ARC's hits that take a new buffer; and a
    /// stream's such hits, records the run wrote, decrypted once from the header's encrypted
    /// copy.
    fn dbuf_fills(&self, work: &mut Work, rec: &Records, seq: bool) {
        let taken = self.arc_records(seq).read * self.new_buffers;
        let rs = self.recordsize as f64;
        work.filled = (rec.read + taken) * rs * self.fill;
        if seq && self.w.access == Access::SeqRead {
            work.filled_cycles = taken * self.psize as f64 * self.cipher_byte;
        }
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
            (rec.read * v.share, rec.written * v.share)
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
        work.txg_cycles += written
            * self.psize as f64
            * cpu::parity_byte(parity, self.release, &self.system.host.cpu);
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

    /// The application's bytes read and written per job: a stream's record, or a request's.
    fn user_bytes(&self, calls: &Calls, seq: bool) -> (f64, f64) {
        let rs = self.recordsize as f64;
        if seq {
            (
                if calls.reads > 0.0 { rs } else { 0.0 },
                if calls.writes > 0.0 { rs } else { 0.0 },
            )
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
        let (own_cycles, fill_kernel) =
            self.app_cycles(calls, requests, (work.filled, work.filled_cycles), seq);
        // Decryption of what the job read from the disks runs on the reader's thread.
        let app_cycles = own_cycles + work.reader_cycles;
        let device_bytes = work.device_bytes();
        let admitted = self.arc_admitted(&work, rec);
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
                app_wait_s: requests * calls.wait_s(self.constants),
                app_in_cycle: !seq,
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
                + 2.0 * work.filled
                + rec.written * self.psize as f64,
            requests,
            population: population.clamp(1, MAX_POPULATION),
            outstanding: self.outstanding(),
            random: !w.access.is_sequential(),
            arc_hit: self.hit,
            arc_admitted_bytes: admitted,
        };
        if seq {
            loads
        } else {
            loads.split(work.parts)
        }
    }

    /// Bytes per job a full ARC admits for reads (arc_evict.rs): the header's data of each
    /// record read from the disks and each new dbuf buffer. The ARC is full when the data set
    /// exceeds what it holds, or is not stated (the default: larger than memory); writes are
    /// not counted here.
    fn arc_admitted(&self, work: &Work, rec: &Records) -> f64 {
        let capacity = arc::data_capacity(self.system, self.release, self.constants);
        let full = self.w.total_bytes().is_none_or(|d| d as f64 > capacity);
        if !full || !arc_evict::applies(self.release) || self.psize == 0 {
            return 0.0;
        }
        let cached = match self.system.pool.datasets.first().map(|d| d.primarycache) {
            Some(PrimaryCache::All) => 1.0,
            _ => 0.0,
        };
        cached * (rec.read * self.psize as f64 + work.filled)
    }

    /// Reference cycles per job on the application's threads (its calls, and for a stream the
    /// dbuf buffers' fill: the reader copies each prefetched record itself, abd.rs), and the
    /// fill the kernel does for a request that waits (arc_read_done, as its read completes).
    fn app_cycles(
        &self,
        calls: &Calls,
        requests: f64,
        filled: (f64, f64),
        seq: bool,
    ) -> (f64, f64) {
        let overwrites = matches!(
            self.w.access,
            Access::Rewrite | Access::Random { .. } | Access::Seeks { .. }
        );
        let own = requests * calls.cycles(self.release, self.constants, overwrites);
        let fill = filled.0 * COPY_BYTE + filled.1;
        if seq {
            (own + fill, 0.0)
        } else {
            (own, fill)
        }
    }

    /// The fraction of each leaf's stroke the data lies on: from the outer edge (an empty pool
    /// allocates the outer metaslabs first) as far as the data set reaches; random requests
    /// over an unknown data set range over the whole disk.
    pub(super) fn span(&self, v: &Vdev, fw: &Fanout) -> f64 {
        let cap = self.system.disks[v.leaves[0]].model.capacity_bytes as f64;
        match self.w.total_bytes() {
            Some(d) => {
                let records = d as f64 / self.recordsize as f64;
                (records * fw.bytes_per_child * v.share / cap).clamp(1e-6, 1.0)
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

    pub(super) fn timing<'m>(&self, model: &'m DiskModel) -> DiskTiming<'m> {
        DiskTiming::new(model, self.constants.disk_command_overhead_s())
    }
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
