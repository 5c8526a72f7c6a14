//! A live ZFS for the end-to-end tests: zfs-fuse (pool v23) started as root, its tools, and the
//! rule that a test without it says SKIPPED loudly and passes, except in CI (CI=true), where it
//! fails.

use super::scratch::LoopDevice;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// Whether zfs-fuse can run here (root, the tools, /dev/fuse, and `extra` tools); else why not.
pub(crate) fn prerequisites(extra: &[&str]) -> Result<(), String> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    if !root {
        return Err("not root (zfs-fuse needs /dev/fuse and root)".into());
    }
    for t in ["zfs-fuse", "zpool", "zfs", "zdb"].iter().chain(extra) {
        if !Path::new("/usr/sbin").join(t).exists() && which(t).is_none() {
            return Err(format!(
                "{t} is missing (scripts/test-deps.sh installs the Debian packages)"
            ));
        }
    }
    if !Path::new("/dev/fuse").exists() {
        return Err("/dev/fuse is missing".into());
    }
    Ok(())
}

use super::which;

pub(crate) fn tool(name: &str) -> PathBuf {
    let sbin = Path::new("/usr/sbin").join(name);
    if sbin.exists() {
        sbin
    } else {
        PathBuf::from(name)
    }
}

/// Runs a ZFS command; its stdout, or its stderr as the error.
pub(crate) fn run(name: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(tool(name))
        .args(args)
        .output()
        .map_err(|e| format!("{name}: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "{name} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

pub(crate) fn must(name: &str, args: &[&str]) -> String {
    run(name, args).unwrap_or_else(|e| panic!("{e}"))
}

/// Retries a command that fails while FUSE still holds a mount (destroy right after create).
pub(crate) fn retry(name: &str, args: &[&str]) -> Result<(), String> {
    let mut last = String::new();
    for _ in 0..40 {
        match run(name, args) {
            Ok(_) => return Ok(()),
            Err(e) => last = e,
        }
        sleep(Duration::from_millis(250));
    }
    Err(last)
}

/// The zfs-fuse daemon of a test: started by it (and stopped, by its own pid, on drop), or one
/// already running, which is used and left be.
pub(crate) struct Daemon(Option<Child>);

impl Daemon {
    pub(crate) fn start(dir: &Path) -> Daemon {
        if run("zpool", &["list"]).is_ok() {
            eprintln!("a zfs-fuse daemon is already running: using it, not stopping it");
            return Daemon(None);
        }
        // zfs-fuse's control socket lives here and is not configurable.
        fs::create_dir_all("/var/run/zfs").expect("/var/run/zfs");
        let stderr = dir.join("zfs-fuse.stderr");
        let child = Command::new(tool("zfs-fuse"))
            .args(["--no-daemon", "--no-kstat-mount", "--pidfile"])
            .arg(dir.join("zfs-fuse.pid"))
            .stdout(Stdio::null())
            .stderr(fs::File::create(&stderr).expect("zfs-fuse's stderr file"))
            .spawn()
            .expect("zfs-fuse starts");
        let mut daemon = Daemon(Some(child));
        let child = daemon.0.as_mut().expect("just started");
        let answers = || run("zpool", &["list"]).is_ok();
        if let Err(e) = answer_or_exit(child, &stderr, answers, Duration::from_secs(20)) {
            panic!("{e}");
        }
        daemon
    }
}

/// Waits until `answers` (zpool reaches the daemon), or says why not in the daemon's own
/// words: one that exits at once (another daemon holds its lock) shows its stderr rather
/// than a timeout.
pub(crate) fn answer_or_exit(
    child: &mut Child,
    stderr: &Path,
    answers: impl Fn() -> bool,
    limit: Duration,
) -> Result<(), String> {
    let deadline = Instant::now() + limit;
    let said = || {
        fs::read_to_string(stderr)
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    while !answers() {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!(
                "zfs-fuse exited ({status}) before answering: {}",
                said()
            ));
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "zfs-fuse did not answer within {limit:?}: {}",
                said()
            ));
        }
        sleep(Duration::from_millis(100));
    }
    Ok(())
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            // SIGTERM lets the daemon unmount and close; SIGKILL if it hangs (a suspended pool).
            let _ = Command::new("kill").arg(child.id().to_string()).status();
            let deadline = Instant::now() + Duration::from_secs(15);
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                sleep(Duration::from_millis(100));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A test's pools, their files and a loop device, in a directory of its own: all of it goes
/// away on drop, before the daemon (declared before it, so dropped after); the loop device
/// is detached after the pools on it are destroyed (a field, dropped after `drop`).
pub(crate) struct Lab {
    pub dir: PathBuf,
    pub pools: Vec<String>,
    pub loop_device: Option<LoopDevice>,
    /// File systems mounted by the test (inside a dataset), unmounted first.
    pub mounts: Vec<String>,
}

impl Lab {
    pub(crate) fn new(dir: PathBuf) -> Lab {
        Lab {
            dir,
            pools: Vec::new(),
            loop_device: None,
            mounts: Vec::new(),
        }
    }

    pub(crate) fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// A new sparse file of `bytes`.
    pub(crate) fn file(&self, name: &str, bytes: u64) -> String {
        let path = self.path(name);
        fs::File::create(&path)
            .and_then(|f| f.set_len(bytes))
            .expect("sparse file");
        path
    }

    /// A loop device over a new sparse file `name` of `bytes`; its path.
    pub(crate) fn loop_device(&mut self, name: &str, bytes: u64) -> String {
        let image = self.file(name, bytes);
        let dev = LoopDevice::attach(Path::new(&image)).unwrap_or_else(|e| panic!("{e}"));
        let path = dev.0.clone();
        self.loop_device = Some(dev);
        path
    }

    /// `zpool create` of `name` mounted at `mnt-NAME` in the lab.
    pub(crate) fn create(&mut self, name: &str, args: &[String]) {
        let mountpoint = self.path(&format!("mnt-{name}"));
        let mut all = vec!["create", "-f", "-m", &mountpoint, name];
        all.extend(args.iter().map(String::as_str));
        must("zpool", &all);
        self.pools.push(name.to_string());
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        for m in &self.mounts {
            let _ = Command::new("umount").arg(m).status();
        }
        for pool in &self.pools {
            let _ = retry("zpool", &["destroy", "-f", pool]);
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}
