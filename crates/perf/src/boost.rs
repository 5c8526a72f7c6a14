//! The clock a CPU runs at under a workload. A CPU's base clock (`ghz`) is what its maker
//! guarantees with every core busy within its power limit; where a source states its max
//! boost (AMD's Precision Boost) or turbo (Intel's Turbo Boost), one busy core runs at that,
//! and the chip lowers the clock as more cores draw power. Between one busy core and all of
//! them the clock is taken on a straight line from the boost down to the base clock: an
//! APPROXIMATION of the makers' tables of clocks by active cores, which few sources give.
//!
//! The busy cores are the application's threads (at most one per core, the threads spread
//! over the sockets); the kernel's own threads that run beside them (the txg's, the ARC's
//! eviction) are not counted. So one `dd` from the kernel's random device runs at the boost
//! clock, and as many as there are cores at the base clock: tn-bench's five-Optane writers on
//! a Ryzen 5 5600G (3.9 to 4.4 GHz) went 411 MiB/s alone and 340 MiB/s each, six at once.

use model::system::{Host, System};
use model::workload::Workload;
use std::borrow::Cow;

/// The clock in GHz of `host`'s cores with `threads` of the application busy at once.
pub(crate) fn clock_ghz(host: &Host, threads: u32) -> f64 {
    let cpu = &host.cpu;
    let Some(boost) = cpu.boost_ghz else {
        return cpu.ghz;
    };
    let sockets = host.sockets.max(1);
    let cores = cpu.cores.max(1);
    let busy = threads.clamp(1, cores * sockets).div_ceil(sockets);
    if cores == 1 {
        return boost;
    }
    let share = f64::from(busy - 1) / f64::from(cores - 1);
    boost - (boost - cpu.ghz) * share
}

/// `system` with its CPU at the clock `workload`'s threads leave it: itself when its CPU
/// states no boost clock.
pub(crate) fn clocked<'a>(system: &'a System, workload: &Workload) -> Cow<'a, System> {
    let ghz = clock_ghz(&system.host, workload.threads);
    if ghz == system.host.cpu.ghz {
        return Cow::Borrowed(system);
    }
    let mut at = system.clone();
    at.host.cpu.ghz = ghz;
    at.host.cpu.boost_ghz = None;
    Cow::Owned(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{cpu, fast_link, system};
    use model::hardware::Simd;

    /// A host of the Ryzen 5 5600G's clocks: 6 cores, 3.9 GHz base, 4.4 GHz boost
    /// (Notebookcheck, as the catalog cites it).
    fn ryzen(sockets: u32) -> Host {
        let mut host = system("raidz1-5", 5, 200.0, fast_link()).host;
        host.cpu = model::hardware::CpuModel {
            cores: 6,
            ghz: 3.9,
            boost_ghz: Some(4.4),
            ..cpu(Simd::Avx2, 2021)
        };
        host.sockets = sockets;
        host
    }

    #[test]
    fn one_busy_core_boosts_and_every_core_busy_holds_the_base_clock() {
        let host = ryzen(1);
        assert_eq!(clock_ghz(&host, 1), 4.4);
        assert_eq!(clock_ghz(&host, 6), 3.9);
        // More threads than cores busy no more cores (SMT siblings share one).
        assert_eq!(clock_ghz(&host, 12), 3.9);
        // Three of six: two fifths of the way down, 4.4 - 0.5 x 2/5.
        assert!((clock_ghz(&host, 3) - 4.2).abs() < 1e-12);
    }

    #[test]
    fn threads_spread_over_the_sockets() {
        // Two sockets of six: six threads busy three cores of each.
        let host = ryzen(2);
        assert!((clock_ghz(&host, 6) - 4.2).abs() < 1e-12);
        assert_eq!(clock_ghz(&host, 12), 3.9);
    }

    #[test]
    fn a_cpu_without_a_stated_boost_keeps_its_clock() {
        let s = system("raidz1-5", 5, 200.0, fast_link());
        let w = Workload::parse("dd-write").unwrap();
        assert!(matches!(clocked(&s, &w), Cow::Borrowed(_)));
        let mut boosted = s.clone();
        boosted.host = ryzen(1);
        assert_eq!(clocked(&boosted, &w).host.cpu.ghz, 4.4);
    }
}
