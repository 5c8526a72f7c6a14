//! From a workload to the work each resource does per job, as ZFS would issue it.
//! A job is one logical block (record) for a sequential stream, one application request for
//! random I/O, and one request to the device for raw-disk workloads.

use crate::disk::DiskTiming;
use crate::profile::Profile;
use crate::queue::reorder_depth;
use crate::zio::mirror::passed_share;
use crate::zio::{fanout, Fanout, Op};
use crate::PerfError;
use model::hardware::{DiskModel, Medium};
use model::system::System;
use model::workload::{Access, Target, Workload};
use model::VdevType;

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
    /// Random requests it reads per job.
    pub blocks: f64,
    /// Of `busy_s`, the seconds per job its slowest disk spends on other work (writes).
    pub other_s: f64,
    pub width: u32,
}

/// Everything a job needs, and how many jobs are in circulation.
#[derive(Debug, Clone, PartialEq)]
pub struct Loads {
    pub disks: Vec<DiskLoad>,
    /// The top-level vdev each disk belongs to (empty: unused).
    pub vdev_of_disk: Vec<String>,
    pub vdevs: Vec<VdevLoad>,
    pub cpu_cycles: f64,
    /// Of which the application's threads spend copying, and how many threads there are.
    pub copy_cycles: f64,
    pub app_threads: u32,
    /// Application bytes read and written per job.
    pub user_bytes: f64,
    /// Application bytes read and written per job, apart.
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
}

/// The top-level vdevs of the pool's normal class with their leaves (indices into
/// `system.disks`, which fill the vdevs in order).
struct Vdev {
    vtype: VdevType,
    leaves: Vec<usize>,
    /// Share of the pool's blocks it receives: allocation follows free space.
    share: f64,
    name: String,
}

fn vdevs(system: &System) -> Result<Vec<Vdev>, PerfError> {
    let mut out = Vec::new();
    let mut next = 0usize;
    for tl in system.pool.normal() {
        for g in &tl.layout.groups {
            for _ in 0..g.count {
                let leaves: Vec<usize> = (next..next + g.children as usize).collect();
                next += g.children as usize;
                if next > system.disks.len() {
                    return Err(PerfError::System(format!(
                        "the pool needs {} disks, the system has {}",
                        tl.layout.leaves(),
                        system.disks.len()
                    )));
                }
                let data = g.data_children() as f64;
                let kind = match g.vtype {
                    VdevType::Disk => "disk".to_string(),
                    VdevType::Mirror => format!("mirror-{}", g.children),
                    VdevType::Raidz { parity } => format!("raidz{parity}-{}", g.children),
                    VdevType::Draid { parity, .. } => format!("draid{parity}-{}", g.children),
                };
                out.push(Vdev {
                    vtype: g.vtype,
                    name: format!("{kind}-{}", out.len()),
                    share: data * tl.leaf.capacity_bytes as f64,
                    leaves,
                });
            }
        }
    }
    if out.is_empty() {
        return Err(PerfError::System("the pool has no data vdevs".into()));
    }
    let total: f64 = out.iter().map(|v| v.share).sum();
    for v in &mut out {
        v.share /= total;
    }
    Ok(out)
}

/// Reads and writes per job: (read weight, write weight).
fn mix(access: Access) -> (f64, f64) {
    match access {
        Access::SeqWrite => (0.0, 1.0),
        Access::SeqRead => (1.0, 0.0),
        Access::Rewrite => (1.0, 1.0),
        Access::Random { read_pct } => (read_pct as f64 / 100.0, 1.0 - read_pct as f64 / 100.0),
        Access::Seeks { write_pct } => (1.0, write_pct as f64 / 100.0),
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
    /// One block (a stream's record).
    fn per_block(f: &Fanout, n: u32) -> Visit {
        Visit::of_request(f, n, 1.0, 1.0)
    }

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
struct ReadTables<'a>(Vec<(ReadKey<'a>, Vec<f64>)>);

/// Model id, depth, columns, and the bits of the span and the size.
type ReadKey<'a> = (&'a str, u32, u32, u64, u64);

impl<'a> ReadTables<'a> {
    fn get(
        &mut self,
        model: &'a DiskModel,
        bytes: f64,
        span: f64,
        fork: u32,
        depth: u32,
    ) -> &[f64] {
        let key = (
            model.id.as_str(),
            depth,
            fork,
            span.to_bits(),
            bytes.to_bits(),
        );
        let at = match self.0.iter().position(|e| e.0 == key) {
            Some(i) => i,
            None => {
                let t = DiskTiming::new(model);
                let table = t.random_io_queued_s(bytes, span, fork, false, depth);
                self.0.push((key, table));
                self.0.len() - 1
            }
        };
        &self.0[at].1
    }
}

pub fn loads(system: &System, w: &Workload, profile: &Profile) -> Result<Loads, PerfError> {
    if system.disks.is_empty() {
        return Err(PerfError::System("the system has no disks".into()));
    }
    match w.target {
        Target::RawDisk { write_cache } => Ok(raw_loads(system, w, write_cache)),
        Target::Pool => pool_loads(system, w, profile),
    }
}

/// `dd` against the first disk, bypassing ZFS.
fn raw_loads(system: &System, w: &Workload, write_cache: bool) -> Loads {
    let disk = &system.disks[0].model;
    let t = DiskTiming::new(disk);
    let bs = w.block_size as f64;
    let x = w.offset_bytes as f64 / disk.capacity_bytes as f64;
    let write = w.access == Access::SeqWrite;
    let (busy_s, busy_queued_s) = match w.access {
        Access::SeqWrite | Access::SeqRead if write && !write_cache && w.outstanding() == 1 => {
            (t.write_through_io_s(bs, x), Vec::new())
        }
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
        copy_cycles: 0.0,
        app_threads: w.threads,
        user_bytes: bs,
        user_read_bytes: if write { 0.0 } else { bs },
        user_write_bytes: if write { bs } else { 0.0 },
        memory_bytes: bs,
        requests: 1.0,
        population: w.outstanding().min(MAX_POPULATION),
        random: !w.access.is_sequential(),
    }
}

fn pool_loads(system: &System, w: &Workload, profile: &Profile) -> Result<Loads, PerfError> {
    let pool = &system.pool;
    let ds = pool
        .datasets
        .first()
        .ok_or_else(|| PerfError::System("the pool has no dataset".into()))?;
    let rs = ds.recordsize;
    let compression = ds.compression_ratio.max(1.0);
    let psize = ((rs as f64 / compression).ceil() as u64).max(1);
    let seq = w.access.is_sequential();
    let bs = w.block_size as f64;
    let vdevs = vdevs(system)?;
    let (read_w, write_w) = mix(w.access);

    // A stream's job is one record; a random request touches the records it spans.
    let (user_per_op, records) = if seq {
        (rs as f64, 1.0)
    } else {
        (bs, (bs / rs as f64).ceil().max(1.0))
    };
    // Blocks the ARC serves: the share of the data set it holds.
    let arc = profile.arc_max_bytes(system.host.ram_bytes);
    let hit = w.data_bytes.map_or(0.0, |d| (arc / d as f64).min(1.0));
    let miss = 1.0 - hit;
    // A partial-record random write must read the old record first (unless cached).
    let rmw = !seq && bs < rs as f64 && !matches!(w.access, Access::Seeks { .. });
    let block_reads = read_w * miss * records + if rmw { write_w * miss * records } else { 0.0 };
    let block_writes = write_w * records;

    let mut disks = vec![DiskLoad::default(); system.disks.len()];
    let mut vdev_loads = Vec::new();
    let mut vdev_of_disk = vec![String::new(); system.disks.len()];
    let mut cycles = 0.0;
    let mut parity_pass = 0.0;
    // Bytes the leaves' queues hold for a stream: active aggregated I/Os per leaf.
    let mut queued = 0.0;
    let active = if write_w > 0.0 {
        profile.leaf_active_write
    } else {
        profile.leaf_active_read
    };
    let cpu = &profile.cpu;
    let meta = 1.0 + profile.metadata_per_data_byte(rs);
    let mut reads_by_queue = ReadTables::default();
    // Disk (or fork-join vdev) stations one random request reaches: its parts run at once.
    let mut parts = 0.0;

    for v in &vdevs {
        let n = v.leaves.len() as u32;
        let leaf_model = &system.disks[v.leaves[0]].model;
        let rotating = leaf_model.medium == Medium::Hdd;
        let agg = if rotating {
            profile.aggregation_hdd
        } else {
            profile.aggregation_ssd
        } as f64;
        queued += f64::from(n * active) * agg;
        let fr = fanout(v.vtype, n, psize, pool.ashift, Op::Read);
        let fw = fanout(v.vtype, n, psize, pool.ashift, Op::Write);
        // Where the data lies on each disk: from the outer edge, as far as the data set
        // reaches (an empty pool allocates the outer metaslabs first); random requests over
        // an unknown data set range over the whole disk.
        let cap = leaf_model.capacity_bytes as f64;
        let span = match w.data_bytes {
            Some(d) => (d as f64 / psize as f64 * fw.bytes_per_child * v.share / cap).min(1.0),
            None if seq => 0.0,
            None => 1.0,
        };
        let reads = block_reads * v.share;
        let writes = block_writes * v.share;
        // A random request reaches each vdev once: its records lie next to each other and
        // ZFS issues them together (parallel zios, prefetch), so a disk positions once per
        // request and transfers its share of all of them.
        let visit = if seq {
            Visit::per_block(&fr, n)
        } else {
            Visit::of_request(&fr, n, records, v.share)
        };
        let visits = reads / visit.records;
        let stations = if visit.fork > 1 {
            1.0
        } else {
            visit.ios_per_child * f64::from(n)
        };
        parts += (v.share * records).min(1.0) * stations;
        let fork_stn = !seq && visit.fork > 1 && reads > 0.0;
        let depth = |leaf| reorder_depth(system, leaf, profile.leaf_active_sync_read);
        let col = visit.column_bytes;
        let fork_table: Vec<f64> = if fork_stn {
            let least = v.leaves.iter().map(|&l| depth(l)).min().unwrap_or(1);
            let queued = reads_by_queue.get(leaf_model, col, span, visit.fork, least);
            queued.iter().map(|s| visits * s).collect()
        } else {
            Vec::new()
        };
        // The disks of a fork-join vdev are busy with its random reads; their other work (the
        // writes) is charged to the same station, so each disk is one server (the slowest
        // member's share, as the vdev waits for all).
        let mut fork_other_s = 0.0f64;
        for &leaf in &v.leaves {
            vdev_of_disk[leaf] = v.name.clone();
            let t = DiskTiming::new(&system.disks[leaf].model);
            let d = &mut disks[leaf];
            let mut random = Vec::new();
            let mut own_s = 0.0;
            if reads > 0.0 {
                let bytes = reads * fr.bytes_per_child;
                d.read_bytes += bytes;
                if seq {
                    d.read_ops += bytes / col.max(agg);
                    let rate = t.mean_rate(0.0, span, false);
                    let media = if rotating && v.vtype == VdevType::Mirror {
                        let skip_s = t.seek_s(0.0, false) + t.revolution_s() / 2.0;
                        let block = fr.bytes_per_child * f64::from(n);
                        let runs = profile.mirror_runs;
                        block * passed_share(runs, n, block, rate, skip_s, w.threads)
                    } else {
                        fr.media_per_child
                    };
                    own_s += reads * media / rate;
                } else {
                    let per_job = visits * visit.ios_per_child;
                    d.read_ops += per_job * (col / agg).ceil().max(1.0);
                    if !fork_stn {
                        let model = &system.disks[leaf].model;
                        let queued = reads_by_queue.get(model, col, span, 1, depth(leaf));
                        random = queued.iter().map(|s| per_job * s).collect();
                    }
                }
            }
            if writes > 0.0 {
                // The transaction group turns writes into large sequential device writes.
                // A raidz block's padding (skip) sectors are written too: vdev_raidz_io_start
                // issues them as optional I/Os that aggregation takes when they lie between
                // others, and the head passes them either way, as in a read.
                let bytes = writes * fw.media_per_child * meta;
                let col = fw.bytes_per_child / fw.ios_per_child;
                d.write_bytes += bytes;
                d.write_ops += bytes / col.max(agg);
                own_s += bytes / t.mean_rate(0.0, span, true);
            }
            if fork_stn {
                fork_other_s = fork_other_s.max(own_s);
                continue;
            }
            d.busy_s = own_s + random.first().copied().unwrap_or(0.0);
            if random.len() > 1 {
                d.busy_queued_s = random.iter().map(|r| own_s + r).collect();
            }
        }
        if fork_stn {
            vdev_loads.push(VdevLoad {
                name: v.name.clone(),
                members: v.leaves.clone(),
                busy_s: fork_table[0] + fork_other_s,
                busy_queued_s: fork_table.iter().map(|s| s + fork_other_s).collect(),
                blocks: visits,
                other_s: fork_other_s,
                width: visit.fork,
            });
        }
        let zios = |f: &Fanout| f.upper_zios + f.ios_per_child * f64::from(n);
        cycles += reads * zios(&fr) * cpu.zio
            + writes * (zios(&fw) * cpu.zio + fw.parity_bytes * cpu.parity_byte);
        if fw.parity_bytes > 0.0 {
            parity_pass += writes * (psize as f64 + fw.parity_bytes);
        }
    }
    let read_user = read_w * user_per_op;
    let write_user = write_w * user_per_op;
    cycles += read_user * cpu.read_byte + write_user * cpu.write_byte;
    if compression > 1.0 {
        let records_bytes = rs as f64;
        cycles += block_reads * records_bytes * cpu.decompress_byte
            + block_writes * records_bytes * cpu.compress_byte;
    }

    let device_bytes: f64 = disks.iter().map(|d| d.read_bytes + d.write_bytes).sum();
    let population = if seq {
        // A stream keeps as many blocks in flight as the leaves' queues hold in aggregated
        // I/Os, up to what prefetch (or the syncing transaction group) has issued.
        let per_job = device_bytes.max(1.0);
        let blocks = ((queued / per_job).round() as u32).max(1);
        blocks
            .min(profile.stream_blocks(rs))
            .saturating_mul(w.threads)
            .max(w.outstanding())
    } else {
        // Every request the workload keeps outstanding is in flight at the pool: fio at a
        // queue depth above 1 is assumed to use an engine whose depth reaches ZFS (io_uring,
        // whose workers block in ZFS in parallel, or threads). An ASSUMPTION: with libaio on a
        // ZFS file without O_DIRECT, io_submit completes each buffered request before it
        // returns, and qd=32 behaves like qd=1 per job.
        w.outstanding()
    };
    let requests = if seq {
        (read_w + write_w) * rs as f64 / bs
    } else {
        1.0
    };
    let loads = Loads {
        disks,
        vdev_of_disk,
        vdevs: vdev_loads,
        cpu_cycles: cycles,
        copy_cycles: (read_user + write_user) * cpu.copy_byte,
        app_threads: w.threads,
        // Bonnie reports a rewrite by the bytes rewritten, each read once and written once.
        user_bytes: if w.access == Access::Rewrite {
            user_per_op
        } else {
            read_user + write_user
        },
        user_read_bytes: read_user,
        user_write_bytes: write_user,
        memory_bytes: device_bytes + 3.0 * (read_user + write_user) + parity_pass,
        requests,
        population: population.min(MAX_POPULATION),
        random: !seq,
    };
    Ok(if seq { loads } else { loads.split(parts) })
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
            &mut self.copy_cycles,
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
