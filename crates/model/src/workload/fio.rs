//! A fio command line (options given as `--name=value` or `--name value`, no job file) as fio
//! runs one job (fio HOWTO.rst of fio 3.33; docs/zfs-internals.md §8): `rw`, `bs`, `iodepth`,
//! `numjobs`, `size` (each job's own file unless `filename` names one they share; a device
//! node there is a zvol, or any other device the raw first disk),
//! `ioengine` (psync unless given), `direct`/`buffered`, `sync`, `fsync`/`fdatasync`,
//! `end_fsync`/`fsync_on_close`, `rwmixread`/`rwmixwrite`, and the buffer contents
//! (`zero_buffers`, `buffer_compress_percentage`; random otherwise). Options that do not
//! change what reaches the file system (logging, timing, names) are passed over; any other is
//! refused by name.

use super::args::{count, size_in, unsupported, words};
use super::params::engine;
use super::{Access, CacheState, Data, Durability, Engine, Target, Tool, Workload, WorkloadError};
use crate::input::clip;

/// Options that change nothing the model sees.
const PASSED_OVER: &[&str] = &[
    "name",
    "directory",
    "output",
    "output-format",
    "eta",
    "eta-newline",
    "group_reporting",
    "randrepeat",
    "norandommap",
    "runtime",
    "time_based",
    "ramp_time",
    "startdelay",
    "thread",
    "lat_percentiles",
    "clat_percentiles",
    "slat_percentiles",
    "percentile_list",
    "overwrite",
    "create_on_open",
    "allow_file_create",
    "invalidate",
    "unlink",
    "loops",
    "gtod_reduce",
    "disable_lat",
    "disable_clat",
    "disable_slat",
    "fallocate",
    "stonewall",
    "new_group",
    "cpus_allowed",
    "iodepth_batch",
    "iodepth_batch_submit",
    "iodepth_batch_complete",
    "iodepth_batch_complete_min",
    "iodepth_batch_complete_max",
    "iodepth_low",
    "scramble_buffers",
    "refill_buffers",
    "nrfiles",
    "openfiles",
    "file_service_type",
    "kb_base",
    "unit_base",
    "minimal",
    "status-interval",
    "write_bw_log",
    "write_lat_log",
    "write_iops_log",
    "log_avg_msec",
    "per_job_logs",
    "exitall",
    "clocksource",
    "random_generator",
    "randseed",
    "create_serialize",
    "ioscheduler",
    "cpumask",
    "numa_cpu_nodes",
    "numa_mem_policy",
    "hipri",
    "fixedbufs",
    "registerfiles",
    "sqthread_poll",
    "userspace_reap",
    "readonly",
    "size_percent",
];

/// Flags fio takes without a value.
const FLAGS: &[&str] = &[
    "time_based",
    "group_reporting",
    "thread",
    "zero_buffers",
    "refill_buffers",
    "norandommap",
    "gtod_reduce",
    "stonewall",
    "new_group",
    "minimal",
    "per_job_logs",
    "exitall",
    "fixedbufs",
    "registerfiles",
    "sqthread_poll",
    "hipri",
    "userspace_reap",
    "readonly",
    "eta-newline",
];

/// What the options say beyond the workload's own fields.
struct Job {
    w: Workload,
    rw: Option<String>,
    read_pct: u32,
    /// `filesize`: the size of the job's file, which its I/O covers when `size` is not given.
    filesize: Option<u64>,
}

/// The one phase a fio job runs.
pub(super) fn phases(spec: &str) -> Result<Vec<Workload>, WorkloadError> {
    let mut job = Job {
        w: Workload {
            kind: String::new(),
            tool: Tool::Fio,
            access: Access::SeqRead,
            target: Target::Pool,
            block_size: 4096,
            threads: 1,
            queue_depth: 1,
            engine: Engine::Sync,
            data_bytes: None,
            shared_file: false,
            durability: Durability::None,
            direct: false,
            data: Data::Random,
            cache: CacheState::Warm,
            offset_bytes: 0,
            network: false,
            pool_fill: 0.0,
        },
        rw: None,
        read_pct: 50,
        filesize: None,
    };
    for (name, value) in options(spec)? {
        job.set(&name, &value)?;
    }
    let rw = job.rw.unwrap_or_else(|| "read".to_string());
    let mut w = job.w;
    // Without `size`, fio's job covers its file whole (fio's HOWTO: size defaults to the
    // files' size).
    w.data_bytes = w.data_bytes.or(job.filesize);
    w.access = access(&rw, job.read_pct)?;
    w.kind = format!("fio {rw}");
    w.check()?;
    Ok(vec![w])
}

/// The options of a fio command line as (name, value); a flag's value is "1".
fn options(spec: &str) -> Result<Vec<(String, String)>, WorkloadError> {
    let mut out = Vec::new();
    let mut args = words(spec)?.into_iter().skip(1).peekable();
    while let Some(arg) = args.next() {
        let Some(option) = arg.strip_prefix("--") else {
            return Err(WorkloadError(format!(
                "fio: '{}': give options as --name=value (job files are not read)",
                clip(&arg, 30)
            )));
        };
        let (name, value) = match option.split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None if FLAGS.contains(&option) => (option.to_string(), "1".to_string()),
            None => {
                let v = args
                    .next()
                    .ok_or_else(|| WorkloadError(format!("fio: --{option} needs a value")))?;
                (option.to_string(), v)
            }
        };
        out.push((name, value));
    }
    Ok(out)
}

impl Job {
    /// Applies one option.
    fn set(&mut self, name: &str, value: &str) -> Result<(), WorkloadError> {
        let w = &mut self.w;
        let on = value != "0";
        match name {
            "rw" | "readwrite" => self.rw = Some(value.to_string()),
            "bs" | "blocksize" => w.block_size = size_in(value, 1, "fio bs")?,
            "iodepth" => w.queue_depth = count(value, "fio iodepth")?,
            "numjobs" => w.threads = count(value, "fio numjobs")?,
            "size" => w.data_bytes = Some(size_in(value, 1, "fio size")?),
            // A range (`1G-2G`) gives files of several sizes: left unstated.
            "filesize" if value.contains('-') => {}
            "filesize" => self.filesize = Some(size_in(value, 1, "fio filesize")?),
            "filename" => {
                w.shared_file = true;
                if super::is_zvol_path(value) {
                    w.target = Target::Zvol { volblocksize: None };
                } else if value.starts_with("/dev/") {
                    // A disk's own node (`/dev/sdb`, `/dev/nvme0n1`): the raw first disk, its
                    // write cache on as SATA drives ship (as dd's device targets, dd.rs),
                    // nothing of it in the page cache unless the run says so (`cache=warm`).
                    w.target = Target::RawDisk { write_cache: true };
                    w.cache = CacheState::Cold;
                }
            }
            "ioengine" => w.engine = fio_engine(value)?,
            "direct" => w.direct = on,
            "buffered" => w.direct = !on,
            "sync" if on => w.durability = Durability::EachWrite,
            "sync" => {}
            "fsync" | "fdatasync" => w.durability = Durability::Every(count(value, "fio fsync")?),
            "end_fsync" | "fsync_on_close" => {
                if on && w.durability == Durability::None {
                    w.durability = Durability::AtEnd
                }
            }
            "rwmixread" => self.read_pct = percent(value)?,
            "rwmixwrite" => self.read_pct = 100 - percent(value)?,
            "zero_buffers" => w.data = Data::Zeros,
            "buffer_compress_percentage" => {
                w.data = Data::Compressible {
                    percent: percent(value)? as u8,
                }
            }
            _ if PASSED_OVER.contains(&name) => {}
            _ => return Err(unsupported("fio", &format!("--{name}"))),
        }
        Ok(())
    }
}

fn fio_engine(value: &str) -> Result<Engine, WorkloadError> {
    engine(value).ok_or_else(|| {
        WorkloadError(format!(
            "fio ioengine '{}' is not modelled (psync, sync, pvsync, libaio, io_uring, posixaio)",
            clip(value, 20)
        ))
    })
}

/// fio's `rw`: `rw`/`readwrite` is a sequential mix, a read stream and a write stream with
/// a position each (fio's io_u.c: `last_pos[ddir]`), the direction of each request drawn at
/// `rwmixread` odds (get_rand_ddir).
fn access(rw: &str, read_pct: u32) -> Result<Access, WorkloadError> {
    Ok(match rw {
        "read" => Access::SeqRead,
        "write" => Access::SeqWrite,
        "randread" => Access::Random { read_pct: 100 },
        "randwrite" => Access::Random { read_pct: 0 },
        "randrw" => Access::Random { read_pct },
        "rw" | "readwrite" => Access::SeqMix { read_pct },
        other => {
            return Err(WorkloadError(format!(
                "fio rw={}: not modelled (read, write, randread, randwrite, randrw, rw, readwrite)",
                clip(other, 20)
            )))
        }
    })
}

fn percent(text: &str) -> Result<u32, WorkloadError> {
    text.parse::<u32>()
        .ok()
        .filter(|p| *p <= 100)
        .ok_or_else(|| WorkloadError(format!("fio: '{}' is not a percentage", clip(text, 20))))
}
