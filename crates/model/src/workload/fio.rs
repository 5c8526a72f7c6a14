//! A fio command line (options given as `--name=value` or `--name value`, no job file) as fio
//! runs one job (fio HOWTO.rst of fio 3.33; docs/zfs-internals.md §8): `rw`, `bs`, `iodepth`,
//! `numjobs`, `size` (each job's own file unless `filename` names one they share),
//! `ioengine` (psync unless given), `direct`/`buffered`, `sync`, `fsync`/`fdatasync`,
//! `end_fsync`/`fsync_on_close`, `rwmixread`/`rwmixwrite`, and the buffer contents
//! (`zero_buffers`, `buffer_compress_percentage`; random otherwise). Options that do not
//! change what reaches the file system (logging, timing, names) are passed over; any other is
//! refused by name.

use super::args::{count, size_in, unsupported, words};
use super::params::engine;
use super::{Access, CacheState, Data, Durability, Engine, Target, Workload, WorkloadError};
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
    "filesize",
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

/// The one phase a fio job runs.
pub fn phases(spec: &str) -> Result<Vec<Workload>, WorkloadError> {
    let mut w = Workload {
        kind: String::new(),
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
    };
    let (mut rw, mut read_pct) = (None::<String>, 50u32);
    let mut args = words(spec)?.into_iter().skip(1).peekable();
    while let Some(arg) = args.next() {
        let Some(option) = arg.strip_prefix("--") else {
            return Err(WorkloadError(format!(
                "fio: '{}': give options as --name=value (job files are not read)",
                clip(&arg, 30)
            )));
        };
        let (name, inline) = match option.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (option, None),
        };
        let takes_value = !matches!(
            name,
            "time_based"
                | "group_reporting"
                | "thread"
                | "zero_buffers"
                | "refill_buffers"
                | "norandommap"
                | "gtod_reduce"
                | "stonewall"
                | "new_group"
                | "minimal"
                | "per_job_logs"
                | "exitall"
                | "fixedbufs"
                | "registerfiles"
                | "sqthread_poll"
                | "hipri"
                | "userspace_reap"
                | "readonly"
                | "eta-newline"
        );
        let value = match (inline, takes_value) {
            (Some(v), _) => v,
            (None, false) => "1".to_string(),
            (None, true) => args
                .next()
                .ok_or_else(|| WorkloadError(format!("fio: --{name} needs a value")))?,
        };
        let on = || value != "0";
        match name {
            "rw" | "readwrite" => rw = Some(value),
            "bs" | "blocksize" => w.block_size = size_in(&value, 1, "fio bs")?,
            "iodepth" => w.queue_depth = count(&value, "fio iodepth")?,
            "numjobs" => w.threads = count(&value, "fio numjobs")?,
            "size" => w.data_bytes = Some(size_in(&value, 1, "fio size")?),
            "filename" => w.shared_file = true,
            "ioengine" => {
                w.engine = engine(&value).ok_or_else(|| {
                    WorkloadError(format!(
                        "fio ioengine '{}' is not modelled (psync, sync, pvsync, libaio, io_uring, posixaio)",
                        clip(&value, 20)
                    ))
                })?
            }
            "direct" => w.direct = on(),
            "buffered" => w.direct = !on(),
            "sync" => {
                if on() {
                    w.durability = Durability::EachWrite
                }
            }
            "fsync" | "fdatasync" => w.durability = Durability::Every(count(&value, "fio fsync")?),
            "end_fsync" | "fsync_on_close" => {
                if on() && w.durability == Durability::None {
                    w.durability = Durability::AtEnd
                }
            }
            "rwmixread" => read_pct = percent(&value)?,
            "rwmixwrite" => read_pct = 100 - percent(&value)?,
            "zero_buffers" => w.data = Data::Zeros,
            "buffer_compress_percentage" => {
                w.data = Data::Compressible {
                    percent: percent(&value)? as u8,
                }
            }
            _ if PASSED_OVER.contains(&name) => {}
            _ => return Err(unsupported("fio", &format!("--{name}"))),
        }
    }
    let rw = rw.unwrap_or_else(|| "read".to_string());
    w.access = match rw.as_str() {
        "read" => Access::SeqRead,
        "write" => Access::SeqWrite,
        "randread" => Access::Random { read_pct: 100 },
        "randwrite" => Access::Random { read_pct: 0 },
        "randrw" => Access::Random { read_pct },
        other => {
            return Err(WorkloadError(format!(
                "fio rw={}: not modelled (read, write, randread, randwrite, randrw)",
                clip(other, 20)
            )))
        }
    };
    w.kind = format!("fio {rw}");
    w.check()?;
    Ok(vec![w])
}

fn percent(text: &str) -> Result<u32, WorkloadError> {
    text.parse::<u32>()
        .ok()
        .filter(|p| *p <= 100)
        .ok_or_else(|| WorkloadError(format!("fio: '{}' is not a percentage", clip(text, 20))))
}
