//! `zpoolsim bench`: the model's workloads run by fio in a directory of the dataset, with
//! `zpool iostat` sampling every disk each second and the prediction made before each run.
//! Bounded: `--runtime` seconds per workload, `--size` bytes of files at a time (each run's
//! files are removed before the next), refused when the dataset has not that much room.

use crate::scratch::Scratch;
use crate::{fio_job, MeasureError, Result};
use discover::runner::{self, Background};
use discover::Leaf;
use model::{System, Workload};
use parse::{diskstats, fio_json, iostat};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use store::{Bench, Run, Sample};

/// The workloads run when none are named: both sequential directions and the three random
/// mixes, as `zpoolsim predict` names them.
pub const DEFAULT_WORKLOADS: &[&str] = &[
    "dd-write",
    "dd-read",
    "fio-randwrite:qd=8",
    "fio-randread:qd=8",
    "fio-randrw:qd=8",
];

/// Room kept free beyond the files: metadata, and the dataset's other users.
const SPACE_MARGIN: f64 = 1.1;

/// What a run asks of the user.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The directory to run in: on a mounted ZFS dataset.
    pub directory: PathBuf,
    /// The workloads to run, as `predict --workload` takes them.
    pub workloads: Vec<String>,
    /// Bytes of each workload's data set, unless it names its own.
    pub data_bytes: u64,
    /// Seconds each workload runs.
    pub runtime_s: u32,
}

/// A plan checked against the machine: every job built, the space there, the prediction made.
/// What `prepare` hands to `bench`; its parts are the crate's own.
pub struct Ready {
    /// The pool the directory is on.
    pub(crate) pool: String,
    /// The dataset the directory is on.
    pub(crate) dataset: String,
    /// Where fio's files go.
    pub(crate) directory: PathBuf,
    /// The system file discovery wrote for the machine and pool.
    pub(crate) system_toml: String,
    /// The pool's leaves by device name, for each disk's busy share.
    pub(crate) leaves: BTreeMap<String, Leaf>,
    /// One job per workload, in the order to run.
    pub(crate) jobs: Vec<Job>,
    /// Seconds each job runs.
    pub(crate) runtime_s: u32,
    /// Bytes of each job's data set.
    pub(crate) data_bytes: u64,
}

/// One workload ready to run.
pub(crate) struct Job {
    /// As the model reads it, with the data set size.
    pub(crate) spec: String,
    /// The workload the spec reads as.
    pub(crate) workload: Workload,
    /// `predict --json`'s answer for it, made before the run.
    pub(crate) prediction: serde_json::Value,
}

/// Where a bench stands, for a progress bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The workload running.
    pub workload: String,
    /// Its place among the bench's workloads, from 0.
    pub index: usize,
    /// How many workloads the bench runs.
    pub count: usize,
    /// Seconds of fio run so far over all workloads.
    pub done_s: f64,
    /// Seconds of fio the whole bench runs.
    pub total_s: f64,
}

/// The workload with the bench's data set size, unless it names its own.
pub fn with_size(spec: &str, data_bytes: u64) -> String {
    let (kind, params) = spec.split_once(':').unwrap_or((spec, ""));
    if params.split(',').any(|p| p.trim().starts_with("size=")) {
        return spec.to_string();
    }
    let sep = if params.trim().is_empty() { "" } else { "," };
    let size = match data_bytes {
        b if b % (1 << 30) == 0 => format!("{}G", b >> 30),
        b if b % (1 << 20) == 0 => format!("{}M", b >> 20),
        b => b.to_string(),
    };
    format!("{kind}:{params}{sep}size={size}")
}

/// Checks everything before anything is written: fio, the dataset, each job, the space.
pub fn prepare(plan: &Plan, catalog: &model::Catalog) -> Result<Ready> {
    // The flags first: a workload bench cannot run is refused before the machine is asked.
    workloads(plan, &plan.directory)?;
    if runner::which("fio").is_none() {
        return MeasureError::refuse("fio is not installed (the Debian package fio)");
    }
    let dir = runner::directory(&plan.directory)?;
    let mount = runner::mount_of(&dir)?;
    if !mount.is_zfs() {
        return MeasureError::refuse(format!(
            "{} is not in a mounted ZFS dataset: it is on {} ({} at {})",
            dir.display(),
            mount.fs_type,
            mount.source,
            mount.mount_point
        ));
    }
    let dataset = mount.source;
    let pool = dataset.split('/').next().unwrap_or(&dataset).to_string();
    let captured = runner::capture(&pool)?;
    let system_toml = discover::describe(&pool, Some(&dataset), &captured, catalog)?;
    let system = model::system_file::parse(&system_toml, "the discovered system", catalog)
        .map_err(|e| {
            MeasureError::Failed(format!(
                "the discovered system file does not read back: {e}"
            ))
        })?;
    let work = dir.join(format!("zpoolsim-bench-{}", std::process::id()));
    let mut jobs = Vec::new();
    let mut need = 0u64;
    for (spec, w, job) in workloads(plan, &work)? {
        need = need.max(job.file_bytes);
        jobs.push(Job {
            prediction: predict(&system, &w)?,
            spec,
            workload: w,
        });
    }
    check_space(&dir, need)?;
    Ok(Ready {
        pool,
        dataset,
        directory: work,
        system_toml,
        leaves: captured.leaves,
        jobs,
        runtime_s: plan.runtime_s,
        data_bytes: plan.data_bytes,
    })
}

/// Each workload of the plan with the bench's data set size, read and made a fio job in `work`.
fn workloads(plan: &Plan, work: &Path) -> Result<Vec<(String, Workload, fio_job::Job)>> {
    plan.workloads
        .iter()
        .map(|spec| {
            let spec = with_size(spec, plan.data_bytes);
            let w = Workload::parse(&spec).map_err(|e| MeasureError::Refused(e.to_string()))?;
            let job = fio_job::job(&w, work, plan.data_bytes, plan.runtime_s)?;
            Ok((spec, w, job))
        })
        .collect()
}

/// The fio job file of each workload of the plan, as bench writes them in its directory:
/// what `bench` runs, checked, without touching the machine.
pub fn job_files(plan: &Plan) -> Result<Vec<String>> {
    let work = plan.directory.join("zpoolsim-bench-PID");
    Ok(workloads(plan, &work)?
        .into_iter()
        .map(|(_, _, job)| job.text)
        .collect())
}

/// `--size`: the bytes of files each workload works on, a size with its unit from 1 MiB to
/// 1 TiB.
pub fn data_size(text: &str) -> Result<u64> {
    let bytes = model::units::parse_size(text)
        .map_err(|e| MeasureError::Refused(format!("--size {}: {e}", model::input::echo(text))))?;
    if !(1 << 20..=1 << 40).contains(&bytes) {
        return MeasureError::refuse(format!(
            "--size {}: give 1M to 1T",
            model::input::echo(text)
        ));
    }
    Ok(bytes)
}

/// The prediction made before a run, with the simulated percentiles that `bench --compare`
/// sets beside fio's.
fn predict(system: &System, w: &Workload) -> Result<serde_json::Value> {
    let fail = |e: perf::PerfError| MeasureError::Failed(format!("{}: {e}", w.kind));
    let mut p = perf::predict(system, w).map_err(fail)?;
    // A workload the simulation cannot run (one that moves no data) is still measured; its
    // comparison then shows no simulated percentiles.
    p.latency_s = perf::latency(system, w).ok();
    // Stored as `predict --json` prints it: what it leaves out in request's words.
    serde_json::to_value(request::WordedPrediction::from(p))
        .map_err(|e| MeasureError::Failed(e.to_string()))
}

/// Refuses to start unless the dataset has room for the largest run's files and a margin.
fn check_space(dir: &Path, need: u64) -> Result<()> {
    let free = runner::free_bytes(dir)?;
    let want = (need as f64 * SPACE_MARGIN) as u64;
    if free < want {
        return MeasureError::refuse(format!(
            "{} has {free} bytes free; the bench needs {want} (--size and a 10% margin): give a smaller --size",
            dir.display()
        ));
    }
    Ok(())
}

/// What becomes of each run the moment it finishes (the store keeps it, and gives the bench
/// its id on the first).
pub type Keep<'a> = dyn FnMut(&mut Bench, &Run) -> store::Result<()> + 'a;

/// Runs every job, handing each finished run to `keep`; the work directory is removed
/// afterwards, whatever happens. A Ctrl-C or SIGTERM (once `interrupt::catch` is on) stops fio
/// and ends the bench with a sentence saying what was kept.
pub fn run(
    ready: &Ready,
    version: &str,
    progress: &mut dyn FnMut(&Progress),
    keep: &mut Keep,
) -> Result<Bench> {
    let work = Scratch::create(&ready.directory)?;
    let mut bench = Bench {
        id: None,
        uid: store::new_uid(),
        host: store::this_host(),
        started: parse::utc(runner::now_unix()),
        zpoolsim_version: version.to_string(),
        pool: ready.pool.clone(),
        dataset: ready.dataset.clone(),
        directory: ready.directory.display().to_string(),
        system_toml: ready.system_toml.clone(),
        runs: Vec::new(),
    };
    let total_s = f64::from(ready.runtime_s) * ready.jobs.len() as f64;
    for (index, job) in ready.jobs.iter().enumerate() {
        let mut tick = |done: f64| {
            progress(&Progress {
                workload: job.spec.clone(),
                index,
                count: ready.jobs.len(),
                done_s: f64::from(ready.runtime_s) * index as f64 + done,
                total_s,
            })
        };
        let run = match one(ready, job, &work, &mut tick) {
            Err(Stop::Interrupted(signal)) => {
                drop(work);
                return Err(interrupted(signal, &bench, ready));
            }
            Err(Stop::Failed(e)) => return Err(e),
            Ok(run) => run,
        };
        // The store's sentence as it is: the run is measured, only not kept.
        keep(&mut bench, &run).map_err(|e| MeasureError::Failed(e.0))?;
        bench.runs.push(run);
        work.clear();
    }
    Ok(bench)
}

/// The sentence of a bench stopped by a signal: fio stopped, the directory removed, and
/// which of the workloads are kept.
fn interrupted(signal: &str, bench: &Bench, ready: &Ready) -> MeasureError {
    let kept = match bench.id {
        Some(id) => format!(
            "the {} of {} workloads that finished are kept as bench {id}",
            bench.runs.len(),
            ready.jobs.len()
        ),
        None => "no workload had finished, so nothing was stored".to_string(),
    };
    MeasureError::Failed(format!(
        "stopped by {signal}: fio was stopped and {} removed; {kept}",
        ready.directory.display()
    ))
}

/// Why a run did not finish.
enum Stop {
    /// A signal asked us to stop (its name).
    Interrupted(&'static str),
    Failed(MeasureError),
}

impl From<MeasureError> for Stop {
    fn from(e: MeasureError) -> Stop {
        Stop::Failed(e)
    }
}

/// Runs fio in a process group of its own until it ends, `limit` seconds pass (an error) or a
/// signal asks us to stop (the group is stopped); whether it succeeded, and its stderr.
fn fio(
    args: &[&str],
    limit: f64,
    tick: &mut dyn FnMut(f64),
) -> std::result::Result<(bool, String), Stop> {
    let started = Instant::now();
    let mut fio = Background::start_group("fio", args)?;
    while fio.running() {
        if let Some(signal) = crate::interrupt::caught() {
            fio.stop();
            return Err(Stop::Interrupted(signal));
        }
        if started.elapsed().as_secs_f64() > limit {
            fio.stop();
            return Err(Stop::Failed(MeasureError::Failed(format!(
                "fio ran past {limit:.0} s and was stopped"
            ))));
        }
        tick(started.elapsed().as_secs_f64());
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(fio.wait())
}

/// One workload: fio with the iostat sampler and the disks' busy time around it, every file
/// in `work` reached through its handle.
fn one(
    ready: &Ready,
    job: &Job,
    work: &Scratch,
    tick: &mut dyn FnMut(f64),
) -> std::result::Result<Run, Stop> {
    let fio_dir = work.fio_path();
    let job_file = fio_job::job(&job.workload, &fio_dir, ready.data_bytes, ready.runtime_s)?.text;
    work.write("job.fio", &job_file)?;
    // fio lays files out before its clock starts: allow that at a slow 10 MB/s, and twice the
    // runtime, before giving up on it.
    let runtime = f64::from(ready.runtime_s);
    let layout = 60.0 + ready.data_bytes as f64 / 1e7;
    let job_arg = fio_dir.join("job.fio").display().to_string();
    // Lay the files out first, so the samples show the workload and not the layout.
    let (laid_out, stderr) = fio(&["--create_only=1", &job_arg], layout, &mut |_| tick(0.0))?;
    if !laid_out {
        return Err(fio_failed(ready, job, "could not lay out its files", &stderr, "").into());
    }
    let sampling = Instant::now();
    let sampler = iostat_sampler(&ready.pool)?;
    let before = busy_ms();
    let started = Instant::now();
    let output = format!("--output={}", fio_dir.join("fio.json").display());
    let args = ["--output-format=json", &output, &job_arg];
    let (succeeded, stderr) = fio(&args, 2.0 * runtime + layout, &mut |t| tick(t.min(runtime)))
        .map_err(|e| match e {
            Stop::Failed(MeasureError::Failed(why)) => {
                Stop::Failed(MeasureError::Failed(format!("{}: {why}", job.spec)))
            }
            e => e,
        })?;
    let seconds = started.elapsed().as_secs_f64();
    let after = busy_ms();
    let fio_text = work.read("fio.json").unwrap_or_default();
    if !succeeded {
        return Err(fio_failed(ready, job, "failed", &stderr, &fio_text).into());
    }
    let samples = sampled(sampler, sampling, &job.spec)?;
    in_place(job, work)?;
    let utilization = diskstats::utilization(&before, &after, seconds);
    Ok(Run {
        workload: job.spec.clone(),
        runtime_s: runtime,
        data_bytes: ready.data_bytes,
        job_file,
        measured: fio_json::parse(&fio_text).map_err(MeasureError::from)?,
        prediction: job.prediction.clone(),
        fio_json: fio_text,
        samples,
        busy: busy_of_leaves(&ready.leaves, &utilization),
    })
}

/// The sentence of a fio that failed: the pool named when it is full (ENOSPC, in a job's error
/// or in fio's words, which LC_ALL=C keeps English), else fio's first line about an error.
pub(crate) fn fio_failed(
    ready: &Ready,
    job: &Job,
    what: &str,
    stderr: &str,
    json: &str,
) -> MeasureError {
    let error = fio_json::job_error(json);
    if error == Some(i64::from(libc::ENOSPC)) || stderr.contains("No space left on device") {
        return MeasureError::Failed(format!(
            "{}: the pool {} is full: fio could not write its files (No space left on device); free space in {} or give a smaller --size",
            job.spec, ready.pool, ready.dataset
        ));
    }
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    let why = lines()
        .find(|l| l.contains("error") || l.starts_with("fio:"))
        .map(str::to_string)
        .or_else(|| {
            let errno = i32::try_from(error?).ok()?;
            Some(format!(
                "a job ended with {}",
                std::io::Error::from_raw_os_error(errno)
            ))
        })
        .or_else(|| lines().next().map(str::to_string))
        .unwrap_or_else(|| "no message".to_string());
    MeasureError::Failed(format!(
        "{}: fio {what}: {}",
        job.spec,
        model::input::echo(&why)
    ))
}

/// Refuses a run whose directory was renamed or replaced while it ran (fio wrote through the
/// handle, but someone is tampering with DIR: nothing of it is kept).
fn in_place(job: &Job, work: &Scratch) -> Result<()> {
    if work.in_place() {
        return Ok(());
    }
    MeasureError::fail(format!(
        "{}: {} was renamed or replaced while fio ran (another user can write in its directory): the run is not kept; bench a directory only you can write in",
        job.spec,
        work.path().display()
    ))
}

/// How long the sampler runs at least: two reports past its first (which averages since the
/// pool's import), so even a one-second run has a per-disk sample.
const MIN_SAMPLING: Duration = Duration::from_millis(2500);

/// The sampler's per-disk seconds, once it has sampled long enough. None at all is a failure
/// stated (zpool iostat failed, or printed what cannot be read), never a bench kept silently
/// without its disks.
pub(crate) fn sampled(sampler: Background, since: Instant, spec: &str) -> Result<Vec<Sample>> {
    if let Some(rest) = MIN_SAMPLING.checked_sub(since.elapsed()) {
        std::thread::sleep(rest);
    }
    let (out, err) = sampler.stop();
    let samples = samples(&out);
    if !samples.is_empty() {
        return Ok(samples);
    }
    let said = err
        .lines()
        .chain(out.lines())
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map_or("nothing".to_string(), |l| {
            format!("\"{}\"", model::input::echo(l))
        });
    MeasureError::fail(format!(
        "{spec}: zpool iostat gave no per-disk sample while fio ran (it printed {said}): the run is not kept"
    ))
}

fn busy_ms() -> BTreeMap<String, u64> {
    diskstats::busy_ms(&runner::read_file(Path::new("/proc/diskstats")).unwrap_or_default())
}

/// `zpool iostat` each second, exact (`-p`) and with full paths (`-P`) where this zpool has
/// them (zfs-fuse's has neither, and prints files' full paths anyway).
fn iostat_sampler(pool: &str) -> Result<Background> {
    let mut exact = Background::start("zpool", &["iostat", "-v", "-p", "-P", pool, "1"])?;
    std::thread::sleep(Duration::from_millis(300));
    if exact.running() {
        return Ok(exact);
    }
    Background::start("zpool", &["iostat", "-v", pool, "1"])
}

/// Each disk's row of every report but the first (which averages since the pool's import).
pub(crate) fn samples(iostat_text: &str) -> Vec<Sample> {
    iostat::parse(iostat_text)
        .into_iter()
        .skip(1)
        .enumerate()
        .flat_map(|(second, rows)| {
            rows.into_iter().filter(|r| r.leaf).map(move |r| Sample {
                second: second as u32,
                device: r.name,
                vdev: r.vdev,
                read_ops_per_s: r.read_ops,
                write_ops_per_s: r.write_ops,
                read_bytes_per_s: r.read_bytes,
                write_bytes_per_s: r.write_bytes,
            })
        })
        .collect()
}

/// The busy fraction of each leaf that is a block device, by the leaf's name.
fn busy_of_leaves(
    leaves: &BTreeMap<String, Leaf>,
    utilization: &BTreeMap<String, f64>,
) -> BTreeMap<String, f64> {
    leaves
        .iter()
        .filter_map(|(leaf, resolved)| match resolved {
            Leaf::Block(name) => Some((leaf.clone(), *utilization.get(name)?)),
            _ => None,
        })
        .collect()
}
