//! The bottleneck in one plain sentence with its numbers, and the headroom to the next limit.

use crate::demand::Loads;
use crate::predict::Utilization;
use crate::resources::Kind;
use model::system::System;
use serde::Serialize;

/// The resource that limits the workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bottleneck {
    pub resource: String,
    pub kind: Kind,
    pub utilization: f64,
    /// What the pool could do if this resource were the only limit: bytes/s for streams,
    /// operations/s for random workloads.
    pub limit: f64,
    pub sentence: String,
    /// The next limit: the second busiest resource and how much more it would allow (%).
    pub next_resource: Option<String>,
    pub headroom_pct: Option<f64>,
}

fn mb(bytes_per_s: f64) -> String {
    format!("{:.1} MB/s", bytes_per_s / 1e6)
}

/// The pool-level figure (bytes/s or ops/s) a resource alone allows, as text.
fn amount(loads: &Loads, jobs_per_s: f64) -> (f64, String) {
    if loads.random {
        let ops = jobs_per_s * loads.requests;
        (ops, format!("{ops:.0} IOPS"))
    } else {
        let b = jobs_per_s * loads.user_bytes;
        (b, mb(b))
    }
}

pub fn find(utils: &[Utilization], loads: &Loads, system: &System) -> Bottleneck {
    let top = &utils[0];
    let (limit, limit_text) = amount(loads, top.max_jobs_per_s);
    let sentence = match top.kind {
        Kind::Cpu => {
            let cpu = &system.host.cpu;
            let cores = cpu.cores * system.host.sockets.max(1);
            let per_byte = loads.cpu_cycles / loads.user_bytes;
            format!(
                "the CPU limits the pool: {cores} cores x {} GHz = {:.1} G cycles/s, and each byte \
                 costs {per_byte:.1} cycles (checksums, copies, parity and the zio pipeline): {limit_text}",
                cpu.ghz,
                f64::from(cores) * cpu.ghz
            )
        }
        Kind::Thread => format!(
            "the application's threads limit the pool ({}): each copies its data between its \
             buffer and the ARC on one core: {limit_text}",
            top.detail
        ),
        Kind::Vdev => {
            let vdev = loads.vdevs.iter().find(|v| v.name == top.resource);
            format!(
                "{} limits the pool: a random block needs {} data disks at once and takes \
                 {:.1} ms, so the pool serves at most {limit_text}",
                top.resource,
                vdev.map_or(0, |v| v.width),
                // Per block, at the queue the vdev sees (its disks reorder queued blocks).
                vdev.map_or(0.0, |v| 1e3 / (v.blocks * top.max_jobs_per_s)),
            )
        }
        _ if loads.random => format!(
            "{} limits the pool ({}): {limit_text}",
            named(top),
            top.detail
        ),
        _ => {
            let rate = top.bytes_per_job * top.max_jobs_per_s;
            let ratio = loads.user_bytes / top.bytes_per_job;
            let slowest = if top.kind == Kind::Disk && system.disks.len() > 1 {
                " (the slowest disk: round-robin gives every disk an equal share)"
            } else {
                ""
            };
            let how = if ratio >= 1.0 {
                format!(
                    "{} x {ratio:.2} (the pool's bytes per byte it moves)",
                    mb(rate)
                )
            } else {
                format!(
                    "{} / {:.2} (bytes it moves per byte of the workload: parity, copies, metadata)",
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

/// "disk c0t0d0", "bus pcix-133"; "memory" alone where the name is the kind.
pub fn named(u: &Utilization) -> String {
    if u.resource.eq_ignore_ascii_case(u.kind.word()) {
        u.resource.clone()
    } else {
        format!("{} {}", u.kind.word(), u.resource)
    }
}
