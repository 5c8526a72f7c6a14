//! fio job files that are the model's workloads: what `zpoolsim predict -w SPEC` predicts is
//! what fio runs. Sequential workloads (dd-*, iozone-*) give each thread (`numjobs`) its own
//! file, read or written front to back in `bs` requests, one at a time (psync). Random ones
//! (fio-rand*) share one file among `threads` jobs, each keeping `qd` requests in flight with
//! io_uring: the model takes the queue depth as real at ZFS, which io_uring makes it on a
//! buffered file (its workers block in its place), where libaio would run one at a time.

use crate::{fio_ini, MeasureError, Result};
use model::{Access, Target, Workload};
use std::path::Path;

/// A job file and the bytes its files take.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Job {
    pub text: String,
    pub file_bytes: u64,
}

/// The first setting of `w`, as a workload names it, that the job file below does not carry
/// (it runs psync, or io_uring past qd=1, buffered, with an end fsync for writes, on fresh
/// files): bench refuses it rather than store fio's run under a label it did not run.
fn unhonoured(w: &Workload) -> Option<&'static str> {
    let plain = Workload::parse(&w.kind).ok()?;
    [
        ("engine", w.engine != plain.engine),
        ("direct", w.direct != plain.direct),
        ("sync, fsync or end_fsync", w.durability != plain.durability),
        ("data", w.data != plain.data),
        ("cache", w.cache != plain.cache),
        ("offset", w.offset_bytes != plain.offset_bytes),
        ("net", w.network != plain.network),
        ("shared", w.shared_file != plain.shared_file),
    ]
    .into_iter()
    .find_map(|(key, differs)| differs.then_some(key))
}

/// Refuses a workload whose target is not files of the pool.
fn on_the_pool(w: &Workload) -> Result<()> {
    match w.target {
        Target::Pool => Ok(()),
        Target::Zvol { .. } => MeasureError::refuse(format!(
            "{}: bench runs workloads on files of the pool, never on a device: a zvol's figures come from zpoolsim predict",
            w.kind
        )),
        Target::RawDisk { .. } => MeasureError::refuse(format!(
            "{}: bench runs workloads on the pool; raw-device reads are `zpoolsim calibrate --raw`",
            w.kind
        )),
    }
}

/// fio's `rw=` (with `rwmixread=` for a mix) and the bytes of each job's file.
fn access(w: &Workload, data_bytes: u64) -> Result<(String, u64)> {
    match w.access {
        Access::SeqWrite | Access::SeqRead => {
            if w.queue_depth > 1 {
                return MeasureError::refuse(format!("{}: a sequential workload runs one request at a time per thread; qd is for fio-rand*", w.kind));
            }
            let rw = if w.access == Access::SeqRead { "read" } else { "write" };
            Ok((rw.to_string(), data_bytes / u64::from(w.threads)))
        }
        Access::Random { read_pct } => {
            let rw = match read_pct {
                100 => "randread".to_string(),
                0 => "randwrite".to_string(),
                pct => format!("randrw\nrwmixread={pct}"),
            };
            Ok((rw, data_bytes))
        }
        // No preset is a sequential mix: fio's rw=rw comes only from a command line.
        Access::Rewrite | Access::Overwrite | Access::Seeks { .. } | Access::SeqMix { .. } => MeasureError::refuse(format!(
            "{}: bench runs the dd-*, iozone-* and fio-rand* workloads (Bonnie's rewrite and seeks, dd's conv=notrunc and fio's rw=rw are not among them)",
            w.kind
        )),
    }
}

/// The job for `w` in `dir`, touching `data_bytes` (the data set, split between sequential
/// threads), for `runtime_s` seconds. Every value from outside (the directory, the workload's
/// name) passes `fio_ini`, so each line is the one option it means to fio.
pub(crate) fn job(w: &Workload, dir: &Path, data_bytes: u64, runtime_s: u32) -> Result<Job> {
    on_the_pool(w)?;
    if let Some(key) = unhonoured(w) {
        return MeasureError::refuse(format!(
            "{}: bench's fio job does not carry {key} (docs/measure.md: the job file): leave it out, or predict it with zpoolsim predict",
            w.kind
        ));
    }
    let (rw, per_file) = access(w, data_bytes)?;
    let block = w.block_size;
    let per_file = per_file / block * block;
    if per_file < block {
        return MeasureError::refuse(format!(
            "{}: --size {data_bytes} bytes is less than one {block}-byte block per thread",
            w.kind
        ));
    }
    let shared = matches!(w.access, Access::Random { .. });
    // Writes end with an fsync, so the data has reached the disks when fio stops the clock.
    let writes = !matches!(w.access, Access::SeqRead | Access::Random { read_pct: 100 });
    let mut text =
        format!(
        "; zpoolsim bench: {kind} as fio runs it\n[global]\ndirectory={dir}\nioengine={engine}\n\
         iodepth={qd}\ndirect=0\nbs={block}\nsize={per_file}\nruntime={runtime_s}\n\
         time_based=1\ngroup_reporting=1\nend_fsync={sync}\n\n[{kind}]\nrw={rw}\nnumjobs={jobs}\n",
        engine = if w.queue_depth > 1 { "io_uring" } else { "psync" },
        qd = w.queue_depth,
        kind = fio_ini::section(&w.kind)?,
        dir = fio_ini::directory(dir)?,
        sync = u8::from(writes),
        jobs = w.threads,
    );
    if shared {
        text.push_str("filename=zpoolsim-random\n");
    }
    let files = if shared { 1 } else { u64::from(w.threads) };
    Ok(Job {
        text,
        file_bytes: per_file * files,
    })
}
