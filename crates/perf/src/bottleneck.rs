//! The bottleneck in one plain sentence with its numbers, and the headroom to the next limit.

use crate::load::Loads;
use crate::station::{Kind, Utilization};
use model::system::System;
use serde::Serialize;

/// The resource that limits the workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bottleneck {
    /// The busiest resource, as reports name it (`disk sda`, `slot1`).
    pub resource: String,
    /// What kind of resource it is.
    pub kind: Kind,
    /// Its busy fraction (0..=1), per server for the CPU.
    pub utilization: f64,
    /// What the pool could do if this resource were the only limit: bytes/s for streams,
    /// operations/s for random workloads.
    pub limit: f64,
    /// The bottleneck in one plain sentence with its numbers.
    pub sentence: String,
    /// The next limit: the second busiest resource.
    pub next_resource: Option<String>,
    /// How much more the next limit would allow, percent.
    pub headroom_pct: Option<f64>,
}

fn mb(bytes_per_s: f64) -> String {
    format!("{:.1} MB/s", bytes_per_s / 1e6)
}

/// The pool-level figure (bytes/s or ops/s) a resource alone allows, as text.
fn amount(loads: &Loads, jobs_per_s: f64) -> (f64, String) {
    if loads.random {
        let ops = jobs_per_s * loads.requests;
        // Large requests run at a few per second: keep a decimal there.
        let text = if ops < 100.0 {
            format!("{ops:.1} IOPS")
        } else {
            format!("{ops:.0} IOPS")
        };
        (ops, text)
    } else {
        let b = jobs_per_s * loads.user_bytes;
        (b, mb(b))
    }
}

/// Busy share from which a resource is taken to limit the pool; below it on every resource
/// the jobs in flight are too few to saturate anything and the pool is latency-bound.
/// A convention (the knee of an open queue's response time), not a measured figure.
const SATURATED: f64 = 0.9;

/// The resource that limits the pool, in a sentence with its numbers, and the headroom to the
/// next one; `utils` busiest first.
pub(crate) fn find(utils: &[Utilization], loads: &Loads, system: &System) -> Bottleneck {
    let top = &utils[0];
    if top.utilization < SATURATED {
        return latency_bound(utils, loads);
    }
    let (limit, limit_text) = amount(loads, top.max_jobs_per_s);
    let sentence = match top.kind {
        Kind::Cpu if top.resource == crate::station::ARC_EVICT => format!(
            "the ARC's eviction limits the pool ({}): every buffer a read brings into the \
             full ARC waits until as much is evicted: {limit_text}",
            top.detail
        ),
        Kind::Cpu => cpu_sentence(loads, system, &limit_text),
        Kind::Thread => format!(
            "the application's threads limit the pool ({}): each copies its data between its \
             buffer and the ARC on one core: {limit_text}",
            top.detail
        ),
        Kind::Vdev => vdev_sentence(top, loads, &limit_text),
        _ if loads.random => format!(
            "{} limits the pool ({}): {limit_text}",
            named(top),
            top.detail
        ),
        _ => stream_sentence(top, loads, system, &limit_text),
    };
    let next = utils.get(1);
    Bottleneck {
        resource: top.resource.clone(),
        kind: top.kind,
        utilization: top.utilization,
        limit,
        sentence,
        next_resource: next.map(named),
        headroom_pct: next.map(|n| (n.max_jobs_per_s / top.max_jobs_per_s - 1.0) * 100.0),
    }
}

/// The CPU's cycles per second against the cycles each byte of the workload costs.
fn cpu_sentence(loads: &Loads, system: &System, limit_text: &str) -> String {
    let cpu = &system.host.cpu;
    let cores = cpu.cores * system.host.sockets.max(1);
    let per_byte = loads.cpu.cycles / loads.user_bytes;
    format!(
        "the CPU limits the pool: {cores} cores x {} GHz = {:.1} G cycles/s, and each byte \
         costs {per_byte:.1} cycles (checksums, copies, parity and the zio pipeline): {limit_text}",
        cpu.ghz,
        f64::from(cores) * cpu.ghz
    )
}

/// A streaming resource's rate scaled to the workload's bytes: by the bytes the workload
/// moves per byte of this resource, or divided by the amplification (parity, copies,
/// metadata) where the resource moves more than the workload asks.
fn stream_sentence(top: &Utilization, loads: &Loads, system: &System, limit_text: &str) -> String {
    let rate = top.bytes_per_job * top.max_jobs_per_s;
    let ratio = loads.user_bytes / top.bytes_per_job;
    // The allocator turns its rotor over the top-level vdevs (metaslab_alloc_dva_range) and
    // a block spreads over its vdev's disks, so each disk takes an equal share of a stream
    // and the slowest sets the pace of all.
    let slowest = if top.kind == Kind::Disk && system.disks.len() > 1 {
        " (the slowest disk: round-robin gives every disk an equal share)"
    } else {
        ""
    };
    let how = if ratio >= 1.0 {
        format!(
            "{} x {ratio:.2} (the workload's bytes per byte this resource moves)",
            mb(rate)
        )
    } else {
        format!(
            "{} / {:.2} (bytes this resource moves per byte of the workload: parity, copies, metadata)",
            mb(rate),
            1.0 / ratio
        )
    };
    format!(
        "{}{slowest} limits the pool ({}): {how} = {limit_text}",
        named(top),
        top.detail
    )
}

/// What a raidz or dRAID vdev whose disks work together spends per job: its random blocks
/// (each needing every data disk), and the writes its disks make besides.
fn vdev_sentence(top: &Utilization, loads: &Loads, limit_text: &str) -> String {
    let Some(v) = loads.vdevs.iter().find(|v| v.name == top.resource) else {
        return format!("{} limits the pool: {limit_text}", top.resource);
    };
    let per_job_ms = 1e3 / top.max_jobs_per_s;
    if v.blocks <= 0.0 {
        return format!(
            "{} limits the pool: its {} disks work together on each request's log block and \
             writes, {per_job_ms:.2} ms per request, so the pool serves at most {limit_text}",
            v.name, v.width
        );
    }
    // Per block, at the queue the vdev sees (its disks reorder queued blocks).
    let block_ms = (per_job_ms - 1e3 * v.other_s) / v.blocks;
    let writes = if v.other_s > 0.0 {
        format!(
            ", and its disks write for {:.1} ms per block read",
            1e3 * v.other_s / v.blocks
        )
    } else {
        String::new()
    };
    format!(
        "{} limits the pool: a random block needs {} data disks at once and takes \
         {block_ms:.1} ms{writes}, so the pool serves at most {limit_text}",
        v.name, v.width
    )
}

/// Nothing is saturated: the jobs in flight, each taking its time round the resources, set
/// the rate (Little's law). The resource named is the one a job spends longest at; the next
/// limit is the busiest one, reached when more jobs are in flight.
fn latency_bound(utils: &[Utilization], loads: &Loads) -> Bottleneck {
    let busiest = &utils[0];
    let x = busiest.utilization * busiest.max_jobs_per_s;
    // The kind of resource a job spends longest at, all of its resources together (a random
    // read visits one disk of many), and its busiest member.
    let time_at = |kind: Kind| -> f64 {
        utils
            .iter()
            .filter(|u| u.kind == kind)
            .map(|u| u.demand_s)
            .sum()
    };
    let slowest = utils
        .iter()
        .filter(|u| !u.kind.is_pipe())
        .max_by(|a, b| time_at(a.kind).total_cmp(&time_at(b.kind)))
        .unwrap_or(busiest);
    let several = utils.iter().filter(|u| u.kind == slowest.kind).count() > 1;
    let slowest_name = if several {
        format!("the {}s take", slowest.kind.word())
    } else {
        format!("{} takes", named(slowest))
    };
    let (limit, limit_text) = amount(loads, x);
    // Per application request for random work, per block for a stream.
    let (unit, per_job) = if loads.random {
        ("request", loads.requests)
    } else {
        ("block", 1.0)
    };
    let in_flight = f64::from(loads.population) * per_job;
    let each_ms = in_flight / (x * per_job) * 1e3;
    let sentence = format!(
        "{in_flight:.0} {unit}(s) in flight x {each_ms:.2} ms per {unit}: latency-bound, no \
         resource is saturated (the busiest, {}, is {:.0}% busy); more threads or queue depth \
         would raise it; {} the largest share of each {unit}, {:.2} ms: {limit_text}",
        named(busiest),
        busiest.utilization * 100.0,
        slowest_name,
        time_at(slowest.kind) / per_job * 1e3,
    );
    Bottleneck {
        resource: slowest.resource.clone(),
        kind: slowest.kind,
        utilization: slowest.utilization,
        limit,
        sentence,
        next_resource: Some(named(busiest)),
        headroom_pct: Some((1.0 / busiest.utilization - 1.0) * 100.0),
    }
}

/// A resource's name with its kind in front, unless the name says it already ("disk sd0",
/// "sd0 port", "application threads").
pub fn named(u: &Utilization) -> String {
    name_of(u.kind, &u.resource)
}

fn name_of(kind: Kind, resource: &str) -> String {
    let word = kind.word().to_ascii_lowercase();
    let lower = resource.to_ascii_lowercase();
    if lower.starts_with(&word) || lower.ends_with(&word) {
        resource.to_string()
    } else {
        format!("{} {resource}", kind.word())
    }
}

impl Bottleneck {
    /// The limiting resource's name, with its kind where the name does not say it.
    pub fn named(&self) -> String {
        name_of(self.kind, &self.resource)
    }
}
