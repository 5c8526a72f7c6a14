//! From a workload to the work each resource does per job, stage by stage as ZFS issues it:
//! the application's calls (`app`), the ARC's hits (`arc`), compression (`compress`), the
//! records' fan-out over the vdevs (`zio`), the txg's writes (`txg`), the ZIL's commits (`zil`),
//! the leaves' service times (`leaf`) and the CPU (`cpu`).
//!
//! A job is one record for a sequential stream (its requests are `recordsize / bs`), one
//! application request for random I/O and Bonnie's seeks, and one request to the device for
//! raw-disk workloads.

use crate::app::{self, Calls};
use crate::arc;
use crate::compress::psize;
use crate::constants::Constants;
use crate::cpu;
use crate::leaf::ncq::reorder_depth;
use crate::leaf::DiskTiming;
use crate::release::Release;
use crate::txg;
use crate::vdev::{vdevs, Vdev};
use crate::zil::{self, SyncWrites};
use crate::zio::mirror::passed_share;
use crate::zio::{fanout, Fanout, Op};
use crate::PerfError;
use model::hardware::DiskModel;
use model::workload::{Access, Target, Workload};
use model::{System, VdevClass, VdevType};

/// Largest number of jobs the model circulates: beyond it throughput no longer changes.
const MAX_POPULATION: u32 = 4096;

/// Work one disk does per job.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DiskLoad {
    pub read_bytes: f64,
    pub write_bytes: f64,
    pub read_ops: f64,
    pub write_ops: f64,
    /// Seconds of service per job on this disk alone (not counting fork-join vdev service),
    /// with one request at the disk.
    pub busy_s: f64,
    /// `busy_s` with 1, 2, ... requests at the disk, which it reorders (the last holds for
    /// more); empty: the same at any depth.
    pub busy_queued_s: Vec<f64>,
}

/// A raidz or dRAID vdev serving small random blocks: every data disk at once.
#[derive(Debug, Clone, PartialEq)]
pub struct VdevLoad {
    pub name: String,
    pub members: Vec<usize>,
    pub busy_s: f64,
    /// `busy_s` with 1, 2, ... blocks queued at it (see `DiskLoad`).
    pub busy_queued_s: Vec<f64>,
    /// Random blocks it reads per job.
    pub blocks: f64,
    /// Of `busy_s`, the seconds per job its slowest disk spends on other work (writes).
    pub other_s: f64,
    /// Disks each random block waits for (its data columns), or all of the vdev's disks
    /// when it serves log blocks alone.
    pub width: u32,
}

/// Everything a job needs, and how many jobs are in circulation.
#[derive(Debug, Clone, PartialEq)]
pub struct Loads {
    pub disks: Vec<DiskLoad>,
    /// The top-level vdev each disk belongs to (empty: unused).
    pub vdev_of_disk: Vec<String>,
    pub vdevs: Vec<VdevLoad>,
    /// Reference cycles per job on all cores: the kernel's work and the application's.
    pub cpu_cycles: f64,
    /// Of which the application's own threads spend, and how many threads there are.
    pub app_cycles: f64,
    pub app_threads: u32,
    /// Whether the application waits on each job (random I/O, synchronous writes): its threads
    /// are then part of the cycle; for a stream, prefetch and the txg decouple them.
    pub app_in_cycle: bool,
    /// Application bytes per job, read and written apart.
    pub user_bytes: f64,
    pub user_read_bytes: f64,
    pub user_write_bytes: f64,
    /// Bytes crossing memory per job: device DMA, the checksum pass, the copy between the
    /// application and the ARC (a read and a write), and parity generation.
    pub memory_bytes: f64,
    /// Application requests per job.
    pub requests: f64,
    /// Jobs in flight.
    pub population: u32,
    /// Whether the workload is counted in operations (random) rather than bytes (streams).
    pub random: bool,
    /// Share of the block reads the ARC served.
    pub arc_hit: f64,
}

/// The loads of `w` on `system`.
pub fn loads(
    system: &System,
    w: &Workload,
    release: &Release,
    constants: &Constants,
) -> Result<Loads, PerfError> {
    if system.disks.is_empty() {
        return Err(PerfError::System("the system has no disks".into()));
    }
    match w.target {
        Target::RawDisk { write_cache } => Ok(raw_loads(system, w, write_cache, constants)),
        Target::Pool => Pool::new(system, w, release, constants)?.loads(),
    }
}

/// `dd` or fio against the first disk, bypassing ZFS: one request to the device per job.
fn raw_loads(system: &System, w: &Workload, write_cache: bool, constants: &Constants) -> Loads {
    let disk = &system.disks[0].model;
    let t = DiskTiming::new(disk, constants.disk_command_overhead_s());
    let bs = w.block_size as f64;
    let x = w.offset_bytes as f64 / disk.capacity_bytes as f64;
    let write = w.access.writes();
    let depth = w.outstanding();
    let (busy_s, busy_queued_s) = match w.access {
        Access::SeqWrite if !write_cache && depth == 1 => (t.write_through_io_s(bs, x), Vec::new()),
        Access::SeqWrite | Access::SeqRead => (bs / t.rate_at(x, write), Vec::new()),
        _ => {
            let queued =
                t.random_io_queued_s(bs, 1.0, 1, write, reorder_depth(system, 0, u32::MAX));
            (queued[0], queued)
        }
    };
    let mut disks = vec![DiskLoad::default(); system.disks.len()];
    disks[0] = DiskLoad {
        read_bytes: if write { 0.0 } else { bs },
        write_bytes: if write { bs } else { 0.0 },
        read_ops: if write { 0.0 } else { 1.0 },
        write_ops: if write { 1.0 } else { 0.0 },
        busy_s,
        busy_queued_s,
    };
    let mut vdev_of_disk = vec![String::new(); system.disks.len()];
    vdev_of_disk[0] = "raw device".into();
    Loads {
        disks,
        vdev_of_disk,
        vdevs: Vec::new(),
        cpu_cycles: 0.0,
        app_cycles: 0.0,
        app_threads: w.threads,
        app_in_cycle: false,
        user_bytes: bs,
        user_read_bytes: if write { 0.0 } else { bs },
        user_write_bytes: if write { bs } else { 0.0 },
        memory_bytes: bs,
        requests: 1.0,
        population: depth.clamp(1, MAX_POPULATION),
        random: !w.access.is_sequential(),
        arc_hit: 0.0,
    }
}

/// A workload on the pool, with what every stage decided about it.
struct Pool<'a> {
    system: &'a System,
    w: &'a Workload,
    release: &'a Release,
    constants: &'a Constants,
    vdevs: Vec<Vdev>,
    /// Log devices, if the pool has any.
    logs: Vec<Vdev>,
    recordsize: u64,
    /// Bytes a record occupies after compression (0: a hole).
    psize: u64,
    /// Share of block reads the ARC serves.
    hit: f64,
    sync: Option<SyncWrites>,
    checksum_byte: f64,
    compress_byte: (f64, f64),
    /// Metadata bytes the txg writes per data byte.
    meta: f64,
}

/// What one job asks of the pool, in records: read from disk, written by the txg, and read
/// to complete a partial write.
#[derive(Debug, Clone, Copy, Default)]
struct Records {
    read: f64,
    written: f64,
    /// Of `read`, those read to modify part of them (a partial-record write).
    rmw: f64,
    /// Records one request spans (random I/O).
    per_request: f64,
}

impl Records {
    /// A request's share of a stream's record: `records` of it.
    fn per_request(self, records: f64) -> Records {
        Records {
            read: self.read * records,
            written: self.written * records,
            rmw: self.rmw * records,
            per_request: records,
        }
    }
}

impl<'a> Pool<'a> {
    fn new(
        system: &'a System,
        w: &'a Workload,
        release: &'a Release,
        constants: &'a Constants,
    ) -> Result<Pool<'a>, PerfError> {
        let ds = system
            .pool
            .datasets
            .first()
            .ok_or_else(|| PerfError::System("the pool has no dataset".into()))?;
        let normal = vdevs(system, VdevClass::Normal)?;
        if normal.is_empty() {
            return Err(PerfError::System("the pool has no data vdevs".into()));
        }
        let logs = vdevs(system, VdevClass::Log)?;
        let algorithm = cpu::algorithm(ds.compression, release);
        let sector = 1u64 << system.pool.ashift;
        let cpu_model = &system.host.cpu;
        let capacity = arc::data_capacity(system, release, constants);
        Ok(Pool {
            system,
            w,
            release,
            constants,
            recordsize: ds.recordsize,
            psize: psize(
                ds.recordsize,
                w.data,
                ds.compression_ratio,
                algorithm,
                sector,
            ),
            hit: arc::hit_ratio(w, release, capacity, constants.arc_scan_retention()),
            sync: zil::sync_writes(w, ds, release, !logs.is_empty()),
            checksum_byte: cpu::checksum_byte(ds.checksum, release, cpu_model),
            compress_byte: cpu::compress_byte(algorithm, w.data, ds.compression_ratio),
            meta: txg::metadata_per_data_byte(ds.recordsize),
            vdevs: normal,
            logs,
        })
    }

    /// Records a job reads and writes.
    fn records(&self) -> Records {
        let (rs, bs) = (self.recordsize as f64, self.w.block_size as f64);
        let miss = 1.0 - self.hit;
        match self.w.access {
            Access::SeqRead => Records {
                read: miss,
                ..Records::default()
            },
            Access::SeqWrite => Records {
                written: 1.0,
                ..Records::default()
            },
            Access::Rewrite => Records {
                read: miss,
                written: 1.0,
                ..Records::default()
            },
            Access::Random { read_pct } => {
                let r = f64::from(read_pct) / 100.0;
                let per_request = (bs / rs).ceil().max(1.0);
                // A write of part of a record reads the rest first, unless cached.
                let rmw = if bs < rs {
                    (1.0 - r) * miss * per_request
                } else {
                    0.0
                };
                Records {
                    read: r * miss * per_request + rmw,
                    written: (1.0 - r) * per_request,
                    rmw,
                    per_request,
                }
            }
            // Bonnie's chunk is read within its record; the updated records are written back.
            Access::Seeks { write_pct } => Records {
                read: miss,
                written: f64::from(write_pct) / 100.0,
                rmw: 0.0,
                per_request: 1.0,
            },
        }
    }

    fn loads(&self) -> Result<Loads, PerfError> {
        let w = self.w;
        // A stream with synchronous writes waits on each request: it is served like random I/O,
        // a job per request, its records the request's share of one.
        let seq = w.access.is_sequential() && self.sync.is_none();
        let rec = if seq || !w.access.is_sequential() {
            self.records()
        } else {
            self.records()
                .per_request(w.block_size as f64 / self.recordsize as f64)
        };
        let rs = self.recordsize as f64;
        let calls = Calls::of_request(w, self.recordsize);
        // A stream's job is a record: recordsize / bs requests of it; otherwise a request.
        let requests = if seq { rs / w.block_size as f64 } else { 1.0 };
        let (user_read, user_write) = if seq {
            (
                if calls.reads > 0.0 { rs } else { 0.0 },
                if calls.writes > 0.0 { rs } else { 0.0 },
            )
        } else {
            let bs = w.block_size as f64;
            (calls.reads * bs, calls.writes * bs)
        };
        let mut work = Work::new(self.system);
        let mut cpu_cycles = 0.0;
        let mut stream_bytes = 0.0;
        let zio = self.constants.zio_cycles(self.release.era);
        let psize = self.psize;
        for v in &self.vdevs {
            let n = v.leaves.len() as u32;
            let ashift = self.system.pool.ashift;
            let fr = fanout(v.vtype, n, psize.max(1), ashift, Op::Read);
            let fw = fanout(v.vtype, n, psize.max(1), ashift, Op::Write);
            let reads = if psize == 0 { 0.0 } else { rec.read * v.share };
            let writes = if psize == 0 {
                0.0
            } else {
                rec.written * v.share
            };
            let span = self.span(v, &fw);
            if seq {
                stream_bytes += self.stream(&mut work, v, &fr, &fw, reads, writes, span);
            } else {
                let wait = self.waited(v, self.sync, calls.writes, false);
                cpu_cycles += wait.zios * zio;
                self.random(&mut work, v, &fr, &fw, &rec, span, &wait);
            }
            let zios = |f: &Fanout| f.upper_zios + f.ios_per_child * f64::from(n);
            cpu_cycles += reads * zios(&fr) * zio + writes * zios(&fw) * zio;
            let parity = match v.vtype {
                VdevType::Raidz { parity } | VdevType::Draid { parity, .. } => parity,
                _ => 0,
            };
            cpu_cycles += writes
                * psize as f64
                * cpu::parity_byte(parity, self.release, &self.system.host.cpu);
        }
        for v in &self.logs {
            let wait = self.waited(v, self.sync, calls.writes, true);
            cpu_cycles += wait.zios * zio;
            for &leaf in &v.leaves {
                let d = work.disk(leaf, &v.name);
                d.write_bytes += wait.bytes_per_leaf;
                d.write_ops += wait.ops_per_leaf;
                d.add(wait.seconds, &[]);
            }
        }
        let (compress, decompress) = self.compress_byte;
        cpu_cycles += (rec.read * psize as f64) * self.checksum_byte
            + rec.written * (psize as f64 * self.checksum_byte + rs * compress)
            + rec.read * rs * decompress;
        let overwrites = matches!(
            w.access,
            Access::Rewrite | Access::Random { .. } | Access::Seeks { .. }
        );
        let app_cycles = requests * calls.cycles(self.release, self.constants, overwrites);
        let device_bytes = work.device_bytes();
        let population = if seq {
            self.stream_population(stream_bytes, device_bytes)
        } else {
            app::outstanding(w, self.release).max(self.writeback_in_flight(&rec))
        };
        let loads = Loads {
            vdev_of_disk: work.vdev_of_disk,
            vdevs: work.vdevs,
            disks: work.disks,
            cpu_cycles: cpu_cycles + app_cycles,
            app_cycles,
            app_threads: w.threads,
            app_in_cycle: !seq,
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
                + rec.written * psize as f64,
            requests,
            population: population.clamp(1, MAX_POPULATION),
            random: !w.access.is_sequential(),
            arc_hit: self.hit,
        };
        Ok(if seq { loads } else { loads.split(work.parts) })
    }

    /// The fraction of each leaf's stroke the data lies on: from the outer edge (an empty pool
    /// allocates the outer metaslabs first) as far as the data set reaches; random requests
    /// over an unknown data set range over the whole disk.
    fn span(&self, v: &Vdev, fw: &Fanout) -> f64 {
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

    /// A stream's per-record work on `v`'s leaves; returns the bytes its leaves' queues hold.
    #[allow(clippy::too_many_arguments)]
    fn stream(
        &self,
        work: &mut Work,
        v: &Vdev,
        fr: &Fanout,
        fw: &Fanout,
        reads: f64,
        writes: f64,
        span: f64,
    ) -> f64 {
        let agg = self.aggregation(v) as f64;
        let n = v.leaves.len() as u32;
        let active = if writes > 0.0 {
            self.release.async_write_active
        } else {
            self.release.async_read_active
        };
        let efficiency = txg::write_efficiency(v.rotating, self.constants);
        for &leaf in &v.leaves {
            let model = &self.system.disks[leaf].model;
            let t = self.timing(model);
            let d = work.disk(leaf, &v.name);
            let (mut read_s, mut write_s) = (0.0, 0.0);
            if reads > 0.0 {
                let bytes = reads * fr.bytes_per_child;
                d.read_bytes += bytes;
                d.read_ops += bytes / fr.bytes_per_child.max(agg);
                let rate = t.mean_rate(0.0, span, false);
                let media = if v.rotating && v.vtype == VdevType::Mirror {
                    let skip_s = t.seek_s(0.0, false) + t.revolution_s() / 2.0;
                    let block = fr.bytes_per_child * f64::from(n);
                    let runs = self.release.mirror_runs;
                    block * passed_share(runs, n, rate, skip_s, self.w.threads)
                } else {
                    fr.media_per_child
                };
                read_s = reads * media / rate;
            }
            if writes > 0.0 {
                let bytes = writes * fw.media_per_child * (1.0 + self.meta);
                d.write_bytes += bytes;
                d.write_ops += bytes / (fw.bytes_per_child / fw.ios_per_child).max(agg);
                write_s = bytes / (t.mean_rate(0.0, span, true) * efficiency);
            }
            let switching = if read_s > 0.0 && write_s > 0.0 && v.rotating {
                let turns = 1.0 / self.constants.rewrite_records_in_flight();
                txg::switching_s(&t, span, turns, read_s, write_s)
            } else {
                0.0
            };
            d.busy_s += read_s + write_s + switching;
        }
        f64::from(n * active) * agg
    }

    /// A random request's work on `v`: its record reads as random I/O (reordered by the
    /// disks' queues; a raidz or dRAID vdev's columns must all answer), its written records
    /// as the txg's sequential writes, and the writes the ZIL makes it wait for (`wait`).
    /// A raidz or dRAID vdev whose disks work together (a random read, a log block) is one
    /// station, carrying its disks' other work too; a mirror's or a disk's leaves are their
    /// own stations.
    #[allow(clippy::too_many_arguments)]
    fn random(
        &self,
        work: &mut Work,
        v: &Vdev,
        fr: &Fanout,
        fw: &Fanout,
        rec: &Records,
        span: f64,
        wait: &Waited,
    ) {
        let n = v.leaves.len() as u32;
        let agg = self.aggregation(v) as f64;
        let efficiency = txg::write_efficiency(v.rotating, self.constants);
        let reads = if self.psize == 0 {
            0.0
        } else {
            rec.read * v.share
        };
        let writes = if self.psize == 0 {
            0.0
        } else {
            rec.written * v.share
        };
        let visit = Visit::of_request(fr, n, rec.per_request.max(1.0), v.share);
        let visits = reads / visit.records;
        work.parts += (v.share * rec.per_request).min(1.0)
            * if visit.fork > 1 {
                1.0
            } else {
                visit.ios_per_child * f64::from(n)
            };
        let striped = matches!(v.vtype, VdevType::Raidz { .. } | VdevType::Draid { .. });
        let fork = visit.fork > 1 && reads > 0.0;
        let station = striped && (fork || wait.seconds > 0.0);
        let depth = |leaf| reorder_depth(self.system, leaf, self.release.sync_read_active);
        let col = visit.column_bytes;
        let lead = &self.system.disks[v.leaves[0]].model;
        let mut other_s = 0.0f64;
        for &leaf in &v.leaves {
            let model = &self.system.disks[leaf].model;
            let t = self.timing(model);
            let per_job = visits * visit.ios_per_child;
            let table: Vec<f64> = if reads > 0.0 && !fork {
                let queued = work.tables.get(model, &t, col, span, 1, depth(leaf));
                queued.iter().map(|s| per_job * s).collect()
            } else {
                Vec::new()
            };
            let d = work.disk(leaf, &v.name);
            let mut own_s = 0.0;
            if reads > 0.0 {
                d.read_bytes += reads * fr.bytes_per_child;
                d.read_ops += per_job * (col / agg).ceil().max(1.0);
            }
            if writes > 0.0 {
                // The txg turns random record writes into sequential ones (copy on write).
                let bytes = writes * fw.media_per_child * (1.0 + self.meta);
                d.write_bytes += bytes;
                d.write_ops += bytes / (fw.bytes_per_child / fw.ios_per_child).max(agg);
                own_s += bytes / (t.mean_rate(0.0, span, true) * efficiency);
            }
            d.write_bytes += wait.bytes_per_leaf;
            d.write_ops += wait.ops_per_leaf;
            if station {
                other_s = other_s.max(own_s);
                continue;
            }
            d.add(own_s + wait.seconds, &table);
        }
        if station {
            let t = self.timing(lead);
            let queued = if fork {
                let least = v.leaves.iter().map(|&l| depth(l)).min().unwrap_or(1);
                work.tables.get(lead, &t, col, span, visit.fork, least)
            } else {
                vec![0.0]
            };
            let fixed = other_s + wait.seconds;
            work.vdevs.push(VdevLoad {
                name: v.name.clone(),
                members: v.leaves.clone(),
                busy_s: visits * queued[0] + fixed,
                busy_queued_s: queued.iter().map(|s| visits * s + fixed).collect(),
                blocks: visits,
                other_s: fixed,
                width: if fork { visit.fork } else { n },
            });
        }
    }

    /// What the ZIL makes a writer wait for per job on `v` (the pool's normal vdevs when
    /// `log` is false, a separate log vdev when true): each commit's log block, unless a log
    /// device takes them, and for indirect writes the record written in place first. The
    /// leaves work at once, so the wait is one leaf's service.
    fn waited(&self, v: &Vdev, sync: Option<SyncWrites>, writes: f64, log: bool) -> Waited {
        let Some(sync) = sync else {
            return Waited::default();
        };
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
            // dmu_sync: the record goes to its place before the commit that points to it.
            add(&data, writes * v.share, &|size| {
                lead.random_io_s(size, span, 1, true)
            });
        }
        out
    }

    /// Jobs the syncing txg keeps in flight for random writes nobody waits for: a buffered
    /// write returns once its record is dirty in the ARC, and the txg writes the dirty records
    /// back with up to async_write_max_active I/Os per leaf (vdev_queue.c), whatever the
    /// application's own depth. Only where no request waits on a disk otherwise: its writes
    /// are not synchronous and its reads (a partial record's, a mix's) find the ARC.
    fn writeback_in_flight(&self, rec: &Records) -> u32 {
        if rec.written <= 0.0 || self.sync.is_some() || rec.read > 1e-9 {
            return 0;
        }
        let leaves: usize = self.vdevs.iter().map(|v| v.leaves.len()).sum();
        self.release
            .async_write_active
            .saturating_mul(leaves as u32)
    }

    /// Records a stream keeps in flight: what the leaves' queues hold in aggregated I/Os, up
    /// to what prefetch (or the syncing txg) has issued, for each of the application's streams.
    fn stream_population(&self, queued: f64, device_bytes: f64) -> u32 {
        let blocks = ((queued / device_bytes.max(1.0)).round() as u32).max(1);
        let streams = if self.w.shared_file {
            1
        } else {
            self.w.threads
        };
        let reach = if self.w.access == Access::SeqRead {
            self.release.prefetch_blocks(self.recordsize)
        } else {
            u32::MAX
        };
        blocks
            .min(reach)
            .saturating_mul(streams)
            .max(app::outstanding(self.w, self.release))
    }

    fn aggregation(&self, v: &Vdev) -> u64 {
        if v.rotating {
            self.release.aggregation_hdd
        } else {
            self.release.aggregation_ssd
        }
    }

    fn timing<'m>(&self, model: &'m DiskModel) -> DiskTiming<'m> {
        DiskTiming::new(model, self.constants.disk_command_overhead_s())
    }
}

/// Writes a writer waits for per job on one vdev (the ZIL's).
#[derive(Debug, Clone, Copy, Default)]
struct Waited {
    /// Seconds per job: one leaf's service, the leaves working at once.
    seconds: f64,
    bytes_per_leaf: f64,
    ops_per_leaf: f64,
    zios: f64,
}

/// The per-job work being gathered, disk by disk.
struct Work<'a> {
    disks: Vec<DiskLoad>,
    vdev_of_disk: Vec<String>,
    vdevs: Vec<VdevLoad>,
    tables: ReadTables<'a>,
    /// Disk (or fork-join vdev) stations one random request reaches: its parts run at once.
    parts: f64,
}

impl<'a> Work<'a> {
    fn new(system: &System) -> Work<'a> {
        Work {
            disks: vec![DiskLoad::default(); system.disks.len()],
            vdev_of_disk: vec![String::new(); system.disks.len()],
            vdevs: Vec::new(),
            tables: ReadTables::default(),
            parts: 0.0,
        }
    }

    fn disk(&mut self, leaf: usize, vdev: &str) -> &mut DiskLoad {
        if self.vdev_of_disk[leaf].is_empty() {
            self.vdev_of_disk[leaf] = vdev.to_string();
        }
        &mut self.disks[leaf]
    }

    fn device_bytes(&self) -> f64 {
        self.disks
            .iter()
            .map(|d| d.read_bytes + d.write_bytes)
            .sum()
    }
}

impl DiskLoad {
    /// Adds `fixed` seconds per job at any depth, and a queue-dependent table (per job).
    fn add(&mut self, fixed: f64, table: &[f64]) {
        match (self.busy_queued_s.is_empty(), table.len()) {
            (_, 0) => {
                self.busy_s += fixed;
                self.busy_queued_s.iter_mut().for_each(|s| *s += fixed);
            }
            (true, _) => {
                self.busy_queued_s = table.iter().map(|s| self.busy_s + fixed + s).collect();
                self.busy_s = self.busy_queued_s[0];
            }
            (false, _) => {
                for (s, t) in self.busy_queued_s.iter_mut().zip(table) {
                    *s += fixed + t;
                }
                self.busy_s = self.busy_queued_s[0];
            }
        }
    }
}

/// How one read reaches a top-level vdev of `n` children: the records it carries there, the
/// children it touches and the bytes each of them moves.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Visit {
    /// Records per visit.
    records: f64,
    /// Children a visit waits for (raidz/dRAID columns; 1 for a mirror side or a disk).
    fork: u32,
    /// Positionings each child makes per visit, on average.
    ios_per_child: f64,
    /// Bytes each touched child moves per visit.
    column_bytes: f64,
}

impl Visit {
    /// A request of `records` contiguous records, of which the vdev holds `share`: it visits
    /// the vdev once if it spans vdevs (max(1, share x records) records per visit), and the
    /// records' rotating first columns (raidz) or the sides' balancing (mirror) spread them
    /// over up to all children.
    fn of_request(f: &Fanout, n: u32, records: f64, share: f64) -> Visit {
        let per_visit = (share * records).max(1.0);
        let children = f64::from(n);
        let width = f.ios_per_child * children;
        let touched = (width * per_visit).min(children);
        Visit {
            records: per_visit,
            fork: if f.fork_width > 1 {
                touched.round() as u32
            } else {
                1
            },
            ios_per_child: touched / children,
            column_bytes: per_visit * f.bytes_per_child * children / touched,
        }
    }
}

/// Random reads' service by queue depth (`DiskTiming::random_io_queued_s`), computed once for
/// each disk model, size, span, columns and depth: identical vdevs share one.
#[derive(Default)]
struct ReadTables<'a>(Vec<(ReadKey, Vec<f64>)>, std::marker::PhantomData<&'a ()>);

/// Model id, depth, columns, and the bits of the span and the size.
type ReadKey = (String, u32, u32, u64, u64);

impl ReadTables<'_> {
    fn get(
        &mut self,
        model: &DiskModel,
        t: &DiskTiming,
        bytes: f64,
        span: f64,
        fork: u32,
        depth: u32,
    ) -> Vec<f64> {
        let key = (
            model.id.clone(),
            depth,
            fork,
            span.to_bits(),
            bytes.to_bits(),
        );
        if let Some((_, table)) = self.0.iter().find(|e| e.0 == key) {
            return table.clone();
        }
        let table = t.random_io_queued_s(bytes, span, fork, false, depth);
        self.0.push((key, table.clone()));
        table
    }
}

impl Loads {
    /// The same work as `parts` jobs, each a part of one request that runs alongside the
    /// others (a large request's pieces on different disks proceed at once): the MVA then
    /// overlaps them instead of serving a request's disks one after the other.
    fn split(mut self, parts: f64) -> Loads {
        if parts <= 1.0 {
            return self;
        }
        let each = |v: &mut f64| *v /= parts;
        for d in &mut self.disks {
            for v in [
                &mut d.read_bytes,
                &mut d.write_bytes,
                &mut d.read_ops,
                &mut d.write_ops,
                &mut d.busy_s,
            ] {
                each(v);
            }
            d.busy_queued_s.iter_mut().for_each(each);
        }
        for v in &mut self.vdevs {
            for x in [&mut v.busy_s, &mut v.blocks, &mut v.other_s] {
                each(x);
            }
            v.busy_queued_s.iter_mut().for_each(each);
        }
        for v in [
            &mut self.cpu_cycles,
            &mut self.app_cycles,
            &mut self.user_bytes,
            &mut self.user_read_bytes,
            &mut self.user_write_bytes,
            &mut self.memory_bytes,
            &mut self.requests,
        ] {
            each(v);
        }
        let jobs = (f64::from(self.population) * parts).round() as u32;
        self.population = jobs.clamp(1, MAX_POPULATION);
        self
    }
}
