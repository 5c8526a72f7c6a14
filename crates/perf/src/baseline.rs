//! The rule-of-thumb baseline to beat (docs/zfs-internals.md §6, iXsystems' "six metrics"): for
//! disks of IOPS I and streaming rate S, a stripe member gives I and S, an n-way mirror n I and
//! n S reading but I and S writing, a raidz-p vdev of width w about I and (w - p) S; a pool sums
//! its vdevs. Here S is the outer-track rate and I = 1 / (average seek + half a revolution).

use crate::constants::Constants;
use crate::leaf::DiskTiming;
use model::system::System;
use model::workload::{Access, Target, Workload};
use model::VdevType;

/// One disk's I (operations/s) and S (bytes/s).
fn rule_figures(system: &System, leaf: usize) -> (f64, f64) {
    let m = &system.disks[leaf].model;
    let t = DiskTiming::new(m, Constants::fitted().disk_command_overhead_s());
    let iops = m
        .random_read_iops
        .unwrap_or_else(|| 1.0 / (t.seek_s(1.0, false) + t.revolution_s() / 2.0));
    (iops, m.seq_outer_mb_s * 1e6)
}

/// What the rule of thumb predicts: bytes/s for streams, operations/s for random workloads.
pub fn rule_of_thumb(system: &System, w: &Workload) -> Option<f64> {
    if system.disks.is_empty() {
        return None;
    }
    if let Target::RawDisk { .. } = w.target {
        let (i, s) = rule_figures(system, 0);
        return Some(if w.access.is_sequential() { s } else { i });
    }
    let mut next = 0usize;
    let (mut read_iops, mut write_iops, mut read_bw, mut write_bw) = (0.0, 0.0, 0.0, 0.0);
    for tl in system.pool.normal() {
        for g in &tl.layout.groups {
            for _ in 0..g.count {
                if next >= system.disks.len() {
                    return None;
                }
                let (i, s) = rule_figures(system, next);
                next += g.children as usize;
                let n = f64::from(g.children);
                let (ri, wi, rb, wb) = match g.vtype {
                    VdevType::Disk => (i, i, s, s),
                    VdevType::Mirror => (n * i, i, n * s, s),
                    VdevType::Raidz { .. } | VdevType::Draid { .. } => {
                        let d = f64::from(g.data_children());
                        (i, i, d * s, d * s)
                    }
                };
                read_iops += ri;
                write_iops += wi;
                read_bw += rb;
                write_bw += wb;
            }
        }
    }
    // A job that both reads and writes takes the time of both.
    let both = |r: f64, w: f64| 1.0 / (1.0 / r + 1.0 / w);
    Some(match w.access {
        Access::SeqRead => read_bw,
        Access::SeqWrite | Access::Overwrite => write_bw,
        Access::Rewrite => both(read_bw, write_bw),
        Access::SeqMix { read_pct } => {
            let r = read_pct as f64 / 100.0;
            1.0 / (r / read_bw + (1.0 - r) / write_bw)
        }
        Access::Random { read_pct } => {
            let r = read_pct as f64 / 100.0;
            1.0 / (r / read_iops + (1.0 - r) / write_iops)
        }
        Access::Seeks { .. } => read_iops,
    })
}
