//! Two hosts bench into one PostgreSQL database on zfs-fuse, and `fleet` finds the slow one.
//! Host identities are set by ZPOOLSIM_HOST and ZPOOLSIM_MACHINE_ID (what they are for); one
//! pool lives on files, the other on a loop device whose I/O the kernel throttles to 4 MB/s
//! (a blkio cgroup holding the zfs-fuse daemon, limited on that device only), so its writes
//! fall far short of what the model predicts of the disk discover saw. Without zfs-fuse, fio,
//! PostgreSQL or a blkio cgroup it says SKIPPED loudly and passes, except in CI (CI=true).

mod common;

use common::postgres::Server;
use common::run;
use common::skip;
use common::zfs::{prerequisites, Daemon, Lab};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const MIB: u64 = 1 << 20;
/// The throttle on the slow pool's device, bytes/s each way.
const THROTTLE: u64 = 4 << 20;
const BLKIO: &str = "/sys/fs/cgroup/blkio";

/// The lab of this test (its pools, files and loop device), and the throttling cgroup,
/// undone on drop (before the lab, and the lab before the daemon).
struct Throttled {
    lab: Lab,
    cgroup: Option<PathBuf>,
}

impl Drop for Throttled {
    fn drop(&mut self) {
        if let Some(cgroup) = &self.cgroup {
            // Back to the root group, then the group goes.
            let procs = fs::read_to_string(cgroup.join("cgroup.procs")).unwrap_or_default();
            for pid in procs.lines() {
                let _ = fs::write(Path::new(BLKIO).join("cgroup.procs"), pid);
            }
            let _ = fs::remove_dir(cgroup);
        }
    }
}

impl Throttled {
    /// A pool on `vdev`; its mountpoint.
    fn pool(&mut self, name: &str, vdev: &str) -> String {
        self.lab.create(name, &[vdev.to_string()]);
        self.lab.path(&format!("mnt-{name}"))
    }

    /// Every zfs-fuse process into a blkio group that holds `dev` to `THROTTLE` each way.
    fn throttle(&mut self, dev: &str) {
        let name = dev.trim_start_matches("/dev/");
        let numbers = fs::read_to_string(format!("/sys/class/block/{name}/dev"))
            .expect("the device's numbers");
        let cgroup = Path::new(BLKIO).join(format!("zpoolsim-slow-{}", std::process::id()));
        fs::create_dir_all(&cgroup).expect("a blkio cgroup");
        self.cgroup = Some(cgroup.clone());
        for file in [
            "blkio.throttle.write_bps_device",
            "blkio.throttle.read_bps_device",
        ] {
            fs::write(cgroup.join(file), format!("{} {THROTTLE}", numbers.trim())).expect(file);
        }
        for pid in zfs_fuse_pids() {
            fs::write(cgroup.join("cgroup.procs"), pid.to_string()).expect("moves zfs-fuse");
        }
    }
}

/// The zfs-fuse daemon's process ids.
fn zfs_fuse_pids() -> Vec<u32> {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse().ok()?;
            let comm = fs::read_to_string(e.path().join("comm")).ok()?;
            (comm.trim() == "zfs-fuse").then_some(pid)
        })
        .collect()
}

/// `zpoolsim bench` of `mount` into `db` as host `host`.
fn bench_as(host: &str, mount: &str, db: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .args([
            "bench",
            mount,
            "--workloads",
            "dd-write",
            "--size",
            "8M",
            "--runtime",
            "2",
            "--db",
            db,
        ])
        .env("ZPOOLSIM_HOST", host)
        .env("ZPOOLSIM_MACHINE_ID", format!("{host}-id"))
        .output()
        .expect("bench runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn two_hosts_bench_into_one_postgresql_and_the_slow_pool_is_flagged() {
    if let Err(why) = prerequisites(&["fio", "losetup"]) {
        return skip(
            "fleet live test (two hosts on zfs-fuse into PostgreSQL)",
            &why,
        );
    }
    if !Path::new(BLKIO).join("cgroup.procs").exists() {
        return skip(
            "fleet live test",
            "no blkio cgroup to throttle a device with",
        );
    }
    let server = match Server::start("fleet-zfs") {
        Ok(s) => s,
        Err(why) => return skip("fleet live test", &why),
    };
    let url = server.database("team", "postgres");
    let dir = std::env::temp_dir().join(format!("zpoolsim-fleet-zfs-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let _daemon = Daemon::start(&dir);
    let mut lab = Throttled {
        lab: Lab::new(dir),
        cgroup: None,
    };
    let id = std::process::id();
    let file = lab.lab.file("fast.img", 192 * MIB);
    let fast = lab.pool(&format!("zpfast{id}"), &file);
    let dev = lab.lab.loop_device("slow.img", 192 * MIB);
    let slow = lab.pool(&format!("zpslow{id}"), &dev);
    lab.throttle(&dev);

    bench_as("alpha", &fast, &url);
    bench_as("beta", &slow, &url);
    let (code, out, err) = run(&["fleet", "--db", &url, "--json"]);
    assert_eq!(code, 0, "{err}");
    let page: Value = serde_json::from_str(&out).expect("JSON");
    let rows = page["pools"].as_array().unwrap();
    let names: Vec<(Value, Value, Value)> = rows
        .iter()
        .map(|r| {
            (
                r["host"].clone(),
                r["machine_id"].clone(),
                r["pool"].clone(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            (
                json!("alpha"),
                json!("alpha-id"),
                json!(format!("zpfast{id}"))
            ),
            (
                json!("beta"),
                json!("beta-id"),
                json!(format!("zpslow{id}"))
            ),
        ]
    );
    let ratio = |r: &Value| r["workloads"][0]["ratio"].as_f64().expect("a ratio");
    let (fast_ratio, slow_ratio) = (ratio(&rows[0]), ratio(&rows[1]));
    eprintln!("fleet live: measured/predicted {fast_ratio:.3} on files, {slow_ratio:.3} throttled");
    assert_eq!(rows[1]["flagged"], json!(true), "{out}");
    assert!(
        rows[1]["workloads"][0]["measured_bytes_per_s"]
            .as_f64()
            .unwrap()
            < 2.0 * THROTTLE as f64,
        "the throttle holds the slow pool's writes: {out}"
    );
    assert!(slow_ratio < fast_ratio / 3.0, "{out}");
    assert!(!rows[1]["workloads"][0]["bottleneck"]
        .as_str()
        .unwrap()
        .is_empty());
}
