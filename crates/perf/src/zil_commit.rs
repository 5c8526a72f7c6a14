//! zil_commit's per-commit path on the modern code: what a synchronous writer waits for on
//! other threads besides the log block's own write and flush (load/log.rs). zil_commit_impl
//! hands the lwb to the zio pipeline, and the writer sleeps until the lwb's flush is done; on
//! its way the commit passes from thread to thread, each woken from sleep on a core that idles
//! between commits:
//! 1. zil_lwb_write_issue's write zio reaches ZIO_STAGE_ISSUE_ASYNC (ZIO_REWRITE_PIPELINE)
//!    and zio_taskq_dispatch hands it to the high-priority issue taskq (z_wr_iss_h, for
//!    ZIO_PRIORITY_SYNC_WRITE), which runs it to vdev_disk_io_start;
//! 2. the device's completion, zio_interrupt, hands it to the write interrupt taskq
//!    (z_wr_int_h), whose zio_done runs zil_lwb_write_done;
//! 3. that issues the flush of each vdev written (zil_lwb_write_done's zio_flush, 2.2's
//!    zil_lwb_flush_vdevs), whose completion goes through zio_interrupt to the flush's
//!    interrupt taskq (z_ioctl_int), whose zio_done runs zil_lwb_flush_vdevs_done;
//! 4. that marks the writer's zil_commit_waiter done and cv_broadcasts it awake.
//!
//! From ZFS on Linux 0.8 (OpenZFS 8585, "improve batching done in zil_commit()") to OpenZFS
//! 2.1, zil_process_commit_list leaves the last lwb open for more records, and the lone writer
//! waits in zil_commit_waiter (cv_timedwait_hires) for zfs_commit_timeout_pct (5) of the last
//! lwb's latency before zil_commit_waiter_timeout issues it: one sleep and a timer's wake-up
//! more. OpenZFS 2.2 issues it at once when the log has no other writer (zil_process_commit_list's
//! `!zl_parallel`, openzfs/zfs#15381).

use crate::release::{Era, Release};
use model::release::Platform;

/// Thread wake-ups in series on one commit's path (the module's steps 1-4).
const WAKEUPS: f64 = 4.0;

/// One thread's switch to another it woke: ~1.3 us measured by a mutex and condition-variable
/// ping-pong on one core (albertnetymk.github.io, "Context Switch on Linux", 2022).
const SWITCH_S: f64 = 1.3e-6;

/// What waking an idle core adds: the exit latency of the idle state a core enters between
/// commits some 100 us apart. Linux's intel_idle (drivers/idle/intel_idle.c, skx_cstates and
/// later server tables) gives C1E an exit latency of 10 us and a target residency of 20 us,
/// C6 133 us and 600 us: an idle of ~100 us takes C1E.
const IDLE_EXIT_S: f64 = 10e-6;

/// Waking a thread that sleeps on an idle core: the switch and the idle state's exit. POSIX
/// AIO's hand-off is two of them (constants.rs, `posixaio_handoff_s`).
pub(crate) const IDLE_WAKEUP_S: f64 = SWITCH_S + IDLE_EXIT_S;

/// zfs_commit_timeout_pct of ZFS on Linux 0.8 to OpenZFS 2.1 (zil.c): the share of the last
/// lwb's latency the lone writer waits before issuing its lwb.
const COMMIT_TIMEOUT_PCT: f64 = 5.0;

/// The shortest timed sleep each kernel gives: "FreeBSD kernel can't sleep for less then
/// ~2us. Similar tests on Linux show ~50us delay at least from nanosleep()" (A. Motin,
/// https://github.com/openzfs/zfs/pull/14418, 2023). Other kernels: none known, none taken.
fn shortest_sleep_s(platform: Platform) -> f64 {
    match platform {
        Platform::Linux => 50e-6,
        Platform::FreeBsd => 2e-6,
        Platform::Solaris | Platform::Fuse => 0.0,
    }
}

/// Whether the lone writer waits for its lwb's commit timeout: ZFS on Linux 0.8 to OpenZFS 2.1
/// and the FreeBSD and illumos code of the same lines.
fn waits_commit_timeout(release: &Release) -> bool {
    let line = release.zfs.openzfs_line();
    ((0, 8)..(2, 2)).contains(&line)
}

/// Seconds one commit's writer waits on other threads beyond the log block's write and flush
/// (`lwb_s`, zl_last_lwb_latency): the wake-ups of its path and, where the release leaves the
/// lwb open, the commit timeout and the timer's wake-up. Releases before the modern code:
/// none, their fitted zio costs hold what their path cost.
pub(crate) fn wait_s(release: &Release, lwb_s: f64) -> f64 {
    if release.era != Era::Modern {
        return 0.0;
    }
    let wakeup = IDLE_WAKEUP_S;
    let path = WAKEUPS * wakeup;
    if !waits_commit_timeout(release) {
        return path;
    }
    let timeout = lwb_s * COMMIT_TIMEOUT_PCT / 100.0;
    path + timeout.max(shortest_sleep_s(release.platform)) + wakeup
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    #[test]
    fn the_lone_writers_path_by_release_and_kernel() {
        let lwb = 44e-6;
        // OpenZFS 2.2+: four wake-ups of 11.3 us.
        let path = 4.0 * 11.3e-6;
        assert!((wait_s(&release("2.2"), lwb) - path).abs() < 1e-12);
        assert!((wait_s(&release("2.3"), lwb) - path).abs() < 1e-12);
        // 2.1 on Linux: the lwb left open, a sleep of at least 50 us, and the timer's wake-up.
        let linux = path + 50e-6 + 11.3e-6;
        assert!((wait_s(&release("2.1"), lwb) - linux).abs() < 1e-12);
        // FreeBSD 13.1 (OpenZFS 2.1): 5% of 44 us, above its 2 us floor.
        let freebsd = path + 2.2e-6 + 11.3e-6;
        assert!((wait_s(&release("freebsd-13.1"), lwb) - freebsd).abs() < 1e-12);
        // A slow log device's lwb: 5% of 9 ms.
        let hdd = path + 450e-6 + 11.3e-6;
        assert!((wait_s(&release("2.1"), 9e-3) - hdd).abs() < 1e-12);
        // ZoL 0.7 issued at once; the illumos era's fitted zio cost holds its path.
        assert!((wait_s(&release("0.7"), lwb) - path).abs() < 1e-12);
        assert_eq!(wait_s(&release("freebsd-11.3"), lwb), 0.0);
    }
}
