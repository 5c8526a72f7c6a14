//! The ARC's eviction as a limit of its own (arc.c). Once the ARC is full, a buffer the ARC
//! hands out (arc_get_data_impl: the header's data a read from the disks lands in, the dbuf's
//! own buffer arc_buf_alloc_impl fills) waits in arc_wait_for_eviction until the eviction
//! thread has evicted as much (arc_evict_count reaching the waiter's aew_count), whenever the
//! ARC overflows past its hysteresis (ARC_OVF_SEVERE). Buffers freed by their users (a dbuf
//! leaving the dbuf cache) shrink the ARC but do not count as evicted: every byte the ARC
//! admits passes the eviction thread once.
//!
//! Eviction runs on one thread in OpenZFS 2.0-2.3.2 (the arc_evict zthr, arc_evict_cb of 2.2.9)
//! and from 2.3.3 on zfs_arc_evict_threads (arc_evict_thread_init: one below 6 CPUs, else
//! log2(CPUs) + CPUs/32), which 2.3.3 took from the 2.4 line ("ARC: parallel eviction",
//! commit 8e9ffe1b4f, first in tag zfs-2.3.3; 2.3.2's arc.c has no such tunable). Releases
//! before OpenZFS 2 are not modelled here (their arc_reclaim_thread is not in the vendored
//! sources). So many readers of a pool faster than
//! one core can evict share that core's rate (tn-bench's M50: 6.5 GiB/s from the disks at 10,
//! 20 and 40 readers alike, zpool iostat showing each disk idle most of the time).

use crate::cpu;
use crate::release::Release;
use crate::station::{Kind, Station, ARC_EVICT as STATION};
use model::system::Host;

/// The first release that evicts on several threads: 2.3.3 (commit 8e9ffe1b4f).
const PARALLEL_FROM: (u8, u8, u8) = (2, 3, 3);

/// Threads that evict, on a host of `cpus` logical CPUs (max_ncpus), by release.
pub(crate) fn threads(release: &Release, cpus: u32) -> u32 {
    let parallel = release
        .zfs
        .openzfs_version()
        .is_some_and(|v| v >= PARALLEL_FROM);
    if !parallel || cpus < 6 {
        return 1;
    }
    // highbit64(n) - 1 is floor(log2 n).
    (31 - cpus.leading_zeros()) + cpus / 32
}

/// Whether the release evicts on threads of its own that allocations wait for (OpenZFS 2).
pub(crate) fn applies(release: &Release) -> bool {
    release.zfs.openzfs_line() >= (2, 0)
}

/// The eviction threads' station for `admitted` bytes per job entering a full ARC, each
/// costing `cycles_per_byte` reference cycles (a fitted constant); none when nothing enters.
pub(crate) fn station(
    host: &Host,
    release: &Release,
    admitted: f64,
    cycles_per_byte: f64,
) -> Option<Station> {
    if admitted <= 0.0 {
        return None;
    }
    let cpu = &host.cpu;
    let n = threads(release, cpu.threads.max(cpu.cores) * host.sockets.max(1));
    let detail = format!(
        "{n} thread(s) at {} GHz evicting what each read brings into the full ARC",
        cpu.ghz
    );
    let demand = cpu::seconds(cpu, admitted * cycles_per_byte);
    Some(
        Station::new(STATION, Kind::Cpu, detail, demand)
            .servers(n)
            .moving(admitted)
            .in_cycle(false),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    #[test]
    fn one_thread_before_2_3_3_then_log2_plus_a_32nd() {
        assert_eq!(threads(&release("2.2"), 40), 1);
        assert_eq!(threads(&release("2.3"), 40), 1);
        assert_eq!(threads(&release("2.3.2"), 40), 1);
        // 2.3.3 took parallel eviction from the 2.4 line.
        assert_eq!(threads(&release("2.3.3"), 40), 6);
        assert_eq!(threads(&release("2.4"), 4), 1);
        // 2.4.4's arc_evict_thread_init: 40 CPUs give log2 5 + 40/32 1 = 6; 256 give 16.
        assert_eq!(threads(&release("2.4"), 40), 6);
        assert_eq!(threads(&release("2.4"), 256), 16);
        assert_eq!(threads(&release("2.4"), 6), 2);
    }

    #[test]
    fn only_openzfs_2_waits_on_its_eviction_thread() {
        assert!(applies(&release("2.2")));
        assert!(!applies(&release("0.8")));
        assert!(!applies(&release("solaris-2008")));
    }
}
