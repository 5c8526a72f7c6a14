//! The one place that touches the machine: runs the tools (each output bounded), reads /sys
//! and /proc, spawns fio and `zpool iostat`. Everything it returns is text for the parsers.

use crate::describe::{Captured, Leaf};
use crate::{MeasureError, Result};
use parse::mountinfo::{self, Mount};
use parse::{zfs_label, zpool_list, zpool_status};
use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;

/// Bytes of one tool's output or one file kept: far above any real machine's (lsblk -O of a
/// hundred disks is ~300 KiB), it bounds what a broken tool can make us hold.
const MAX_OUTPUT: u64 = 16 << 20;
/// How long a stopped process group has to end by itself before it is killed.
const GRACE: std::time::Duration = std::time::Duration::from_secs(3);
/// Entries of one /sys directory read.
const MAX_ENTRIES: usize = 4096;

/// Where a tool is: PATH, then the sbin directories root's tools live in.
pub fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(tool))
        .find(|f| f.is_file())
}

/// Runs a tool; its stdout when it succeeds, else its first line of stderr as the error.
pub fn run(tool: &str, args: &[&str]) -> Result<String> {
    output(tool, args)?
        .or_else(|why| MeasureError::fail(format!("{tool} {}: {why}", args.join(" "))))
}

/// A tool's stdout when it succeeds, else its first line of stderr ("failed" when it said
/// nothing); the outer error when it cannot be run at all.
fn output(tool: &str, args: &[&str]) -> Result<std::result::Result<String, String>> {
    let mut child = spawn(tool, args, Stdio::piped(), false)?;
    let err = child.stderr.take().map(read_aside);
    let out = child.stdout.take().map(bounded).unwrap_or_default();
    let status = child
        .wait()
        .map_err(|e| MeasureError::Failed(format!("{tool}: {e}")))?;
    let err = err.and_then(|h| h.join().ok()).unwrap_or_default();
    if status.success() {
        return Ok(Ok(out));
    }
    let why = err.lines().find(|l| !l.trim().is_empty());
    Ok(Err(why.unwrap_or("failed").trim().to_string()))
}

/// Starts a tool with its stdout piped to us; in a process group of its own when `group`
/// (so that it and every process it forks can be stopped together, and a Ctrl-C at the
/// terminal reaches us, not it).
fn spawn(tool: &str, args: &[&str], stderr: Stdio, group: bool) -> Result<Child> {
    use std::os::unix::process::CommandExt;
    let program =
        which(tool).ok_or_else(|| MeasureError::Refused(format!("{tool} is not installed")))?;
    let mut command = Command::new(program);
    if group {
        command.process_group(0);
    }
    // The C locale: the tools' numbers with a decimal point (under de_DE zpool iostat prints
    // `11,1M`) and their messages in the words the parsers and the user's report expect.
    command
        .args(args)
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|e| MeasureError::Failed(format!("cannot run {tool}: {e}")))
}

/// The first of several argument lists the tool accepts (newer flags first: zfs-fuse's zpool
/// knows no `-P` or `-p`).
fn first_accepted(tool: &str, forms: &[&[&str]]) -> Option<String> {
    forms.iter().find_map(|args| run(tool, args).ok())
}

fn bounded(r: impl Read) -> String {
    let mut buf = Vec::new();
    let _ = r.take(MAX_OUTPUT).read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Reads a pipe to its end in a thread of its own (so two pipes cannot block each other).
fn read_aside(r: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || bounded(r))
}

/// A file's text, bounded; None when it cannot be read.
pub fn read_file(path: &Path) -> Option<String> {
    fs::File::open(path).ok().map(bounded)
}

/// The pools `zpool list` shows. It is the first question put to ZFS: when it goes unanswered
/// (no zpool, no kernel module, no zfs-fuse daemon behind the socket) that is said plainly,
/// with zpool's own words after it.
pub fn pools() -> Result<Vec<String>> {
    let no_zfs = |why: String| format!("no ZFS answers on this machine: {why}");
    match output("zpool", &["list", "-H", "-o", "name"]) {
        Ok(Ok(text)) => Ok(zpool_list::names(&text)),
        Ok(Err(why)) => MeasureError::refuse(no_zfs(format!("zpool list failed: {why}"))),
        Err(e) => MeasureError::refuse(no_zfs(e.to_string())),
    }
}

/// Refuses a pool this machine does not have, naming those it has.
pub fn check_pool(pool: &str) -> Result<()> {
    let pools = pools()?;
    if pools.iter().any(|p| p == pool) {
        return Ok(());
    }
    let have = if pools.is_empty() {
        "no pool is imported".to_string()
    } else {
        format!("pools here: {}", pools.join(", "))
    };
    MeasureError::refuse(format!("no pool '{pool}' ({have})"))
}

/// Everything `discover` reads for `pool`.
pub fn capture(pool: &str) -> Result<Captured> {
    check_pool(pool)?;
    let status = first_accepted("zpool", &[&["status", "-P", pool], &["status", pool]])
        .ok_or_else(|| MeasureError::Failed(format!("zpool status {pool} failed")))?;
    let leaves = leaves(&status, pool);
    Ok(Captured {
        lsblk: run("lsblk", &["-J", "-b", "-O"]).ok(),
        sysfs: capture_sysfs(Path::new("/")),
        lspci: run("lspci", &["-vv", "-nn"]).ok(),
        smartctl: smartctl(&leaves),
        cpuinfo: read_file(Path::new("/proc/cpuinfo")),
        meminfo: read_file(Path::new("/proc/meminfo")),
        zfs_version: run("zfs", &["version"])
            .ok()
            .or_else(|| read_file(Path::new("/sys/module/zfs/version"))),
        pool_versions: run("zpool", &["upgrade", "-v"]).ok(),
        zpool_status: status,
        zpool_list: run("zpool", &["list", "-v", "-H", "-p", pool]).ok(),
        ashift: run("zpool", &["get", "ashift", pool]).ok(),
        zdb: run("zdb", &["-C", pool]).ok(),
        zfs_get: dataset_properties(pool),
        leaves,
        when: parse::utc(now_unix()),
    })
}

/// Each leaf of the pool, resolved on this machine.
fn leaves(status: &str, pool: &str) -> BTreeMap<String, Leaf> {
    zpool_status::parse(status)
        .iter()
        .filter(|p| p.name == pool)
        .flat_map(|p| p.leaves_in_fill_order())
        .map(|(_, leaf)| (leaf.to_string(), resolve_leaf(leaf)))
        .collect()
}

/// `smartctl -i -j` of the disk under each block-device leaf, where smartctl answers.
fn smartctl(leaves: &BTreeMap<String, Leaf>) -> BTreeMap<String, String> {
    leaves
        .values()
        .filter_map(|l| match l {
            Leaf::Block(name) => Some(whole_disk(name)),
            _ => None,
        })
        .filter_map(|disk| {
            let json = run("smartctl", &["-i", "-j", &format!("/dev/{disk}")]).ok()?;
            Some((disk, json))
        })
        .collect()
}

/// The datasets' properties; zfs-fuse has no `sync`, so it is asked for without it there.
fn dataset_properties(pool: &str) -> Option<String> {
    let with_sync = "recordsize,compression,compressratio,sync";
    [with_sync, "recordsize,compression,compressratio"]
        .iter()
        .find_map(|props| {
            run(
                "zfs",
                &[
                    "get",
                    "-H",
                    "-p",
                    "-r",
                    "-o",
                    "name,property,value",
                    props,
                    pool,
                ],
            )
            .ok()
        })
}

/// Seconds since 1970.
pub fn now_unix() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A leaf as zpool names it: a path (`/dev/disk/by-id/...`, a file) or a bare device name.
fn resolve_leaf(leaf: &str) -> Leaf {
    let candidates = if leaf.starts_with('/') {
        vec![PathBuf::from(leaf)]
    } else {
        [
            "/dev",
            "/dev/disk/by-id",
            "/dev/disk/by-vdev",
            "/dev/disk/by-path",
        ]
        .iter()
        .map(|d| Path::new(d).join(leaf))
        .collect()
    };
    for path in candidates {
        let Ok(real) = fs::canonicalize(&path) else {
            continue;
        };
        let Ok(meta) = fs::metadata(&real) else {
            continue;
        };
        if meta.file_type().is_block_device() {
            let name = real.file_name().map(|n| n.to_string_lossy().into_owned());
            return name.map_or(Leaf::Missing, Leaf::Block);
        }
        if meta.is_file() {
            return Leaf::File(meta.len());
        }
    }
    Leaf::Missing
}

/// The disk a partition is on (`sda1` -> `sda`), from /sys/class/block.
pub fn whole_disk(name: &str) -> String {
    let dir = Path::new("/sys/class/block").join(name);
    if dir.join("partition").exists() {
        if let Some(parent) = fs::canonicalize(&dir).ok().and_then(|p| {
            p.parent()
                .and_then(|d| d.file_name())
                .map(|n| n.to_string_lossy().into_owned())
        }) {
            return parent;
        }
    }
    name.to_string()
}

/// The files `sysfs` reads below each entry of these directories of /sys.
const SYSFS_FILES: [(&str, &[&str]); 3] = [
    (
        "sys/block",
        &[
            "queue/rotational",
            "queue/logical_block_size",
            "queue/physical_block_size",
            "queue/nr_requests",
            "device/queue_depth",
        ],
    ),
    (
        "sys/bus/pci/devices",
        &[
            "vendor",
            "device",
            "class",
            "current_link_speed",
            "current_link_width",
            "max_link_speed",
            "max_link_width",
        ],
    ),
    ("sys/class/sas_expander", &["vendor_id", "product_id"]),
];

/// The files of /sys that `sysfs` reads, under `root` (`/`, or an unpacked dump of another
/// machine's /sys), in its capture format; a disk's link too, which places it in the tree.
pub fn capture_sysfs(root: &Path) -> String {
    let mut out = String::new();
    for (dir, files) in SYSFS_FILES {
        for name in list(&root.join(dir)) {
            let path = format!("/{dir}/{name}");
            if dir == "sys/block" {
                if let Ok(target) = fs::read_link(root.join(&path[1..])) {
                    out.push_str(&format!("{path}\t-> {}\n", target.display()));
                }
            }
            for f in files {
                let first = read_file(&root.join(&path[1..]).join(f))
                    .and_then(|t| t.lines().next().map(|l| l.trim().to_string()));
                if let Some(value) = first {
                    out.push_str(&format!("{path}/{f}\t{value}\n"));
                }
            }
        }
    }
    out
}

/// A directory's entry names, sorted, at most `MAX_ENTRIES`.
fn list(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|it| {
            it.flatten()
                .take(MAX_ENTRIES)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A tool running in the background whose output is collected until it is stopped (`zpool
/// iostat` sampling while fio runs), its stderr too, for the sentence of a failure.
pub struct Background {
    child: Child,
    reader: Option<JoinHandle<String>>,
    errors: Option<JoinHandle<String>>,
    /// Whether it leads a process group of its own, stopped as a whole.
    group: bool,
}

impl Background {
    /// Starts `tool` with `args`, in this process group: stopped alone, by [`Background::stop`].
    pub fn start(tool: &str, args: &[&str]) -> Result<Background> {
        Background::spawn(tool, args, false)
    }

    /// Starts it in a process group of its own (fio: its job processes go with it).
    pub fn start_group(tool: &str, args: &[&str]) -> Result<Background> {
        Background::spawn(tool, args, true)
    }

    fn spawn(tool: &str, args: &[&str], group: bool) -> Result<Background> {
        let mut child = spawn(tool, args, Stdio::piped(), group)?;
        let reader = child.stdout.take().map(read_aside);
        let errors = child.stderr.take().map(read_aside);
        Ok(Background {
            child,
            reader,
            errors,
            group,
        })
    }

    /// Stops its whole process group: SIGTERM (fio then ends its jobs and closes its files),
    /// SIGKILL to what is left after `GRACE`.
    fn stop_group(&mut self) {
        let group = -(self.child.id() as libc::pid_t);
        // SAFETY: signals to the process group this Background leads (its pid is the group's).
        unsafe { libc::kill(group, libc::SIGTERM) };
        let deadline = std::time::Instant::now() + GRACE;
        while self.running() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        // SAFETY: as above; the group may have forked children that outlive its leader.
        unsafe { libc::kill(group, libc::SIGKILL) };
        let _ = self.child.wait();
    }

    /// Whether it is still running (a tool that refused its flags has exited).
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits for it to end by itself; whether it succeeded, and what it printed on stderr.
    pub fn wait(mut self) -> (bool, String) {
        let status = self.child.wait();
        // Reaped: its pid (and group id) may be reused, so nothing is sent to it any more.
        self.group = false;
        let succeeded = status.is_ok_and(|s| s.success());
        (succeeded, joined(&mut self.errors))
    }

    /// Stops it (it is ours: killed by its handle, or its group) and returns what it printed
    /// on stdout and on stderr.
    pub fn stop(mut self) -> (String, String) {
        self.end();
        (joined(&mut self.reader), joined(&mut self.errors))
    }
}

/// The text a reader thread collected, once its pipe has closed.
fn joined(reader: &mut Option<JoinHandle<String>>) -> String {
    reader
        .take()
        .and_then(|h| h.join().ok())
        .unwrap_or_default()
}

impl Background {
    fn end(&mut self) {
        if self.group {
            self.stop_group();
        } else {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.end();
    }
}

/// A directory the user named, as its canonical path; refused when it is not a directory.
pub fn directory(path: &Path) -> Result<PathBuf> {
    let dir = fs::canonicalize(path)
        .map_err(|e| MeasureError::Failed(format!("{}: {e}", path.display())))?;
    if !dir.is_dir() {
        return MeasureError::refuse(format!("{} is not a directory", dir.display()));
    }
    Ok(dir)
}

/// A path as the C string the kernel's calls take.
fn c_path(path: &Path) -> Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| MeasureError::Refused(format!("{}: a NUL in the path", path.display())))
}

/// Bytes an unprivileged writer may still put in the file system of `dir`.
pub fn free_bytes(dir: &Path) -> Result<u64> {
    let path = c_path(dir)?;
    // SAFETY: statvfs fills the struct it is given from a NUL-terminated path.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(path.as_ptr(), &mut st) } != 0 {
        return MeasureError::fail(format!("cannot read the free space of {}", dir.display()));
    }
    Ok(st.f_bavail as u64 * st.f_frsize as u64)
}

/// Writes a file of ours (a job file in our own directory).
fn write_file(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).map_err(|e| MeasureError::Failed(format!("{}: {e}", path.display())))
}

/// Runs fio read-only on a job file of its own in a private temporary directory, removed after.
pub fn fio_readonly(job: &str) -> Result<String> {
    let dir = std::env::temp_dir().join(format!("zpoolsim-calibrate-{}", std::process::id()));
    let work = WorkDir::create(&dir)?;
    let job_file = work.0.join("calibrate.fio");
    write_file(&job_file, job)?;
    run(
        "fio",
        &[
            "--readonly",
            "--output-format=json",
            &job_file.to_string_lossy(),
        ],
    )
}

/// A directory of ours (calibrate's for its job file): made at the start, removed with
/// everything in it at the end.
struct WorkDir(PathBuf);

impl WorkDir {
    fn create(dir: &Path) -> Result<WorkDir> {
        fs::create_dir(dir)
            .map_err(|e| MeasureError::Failed(format!("cannot create {}: {e}", dir.display())))?;
        Ok(WorkDir(dir.to_path_buf()))
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The mount a directory (canonical) is on, from /proc/self/mountinfo: found by the mount id
/// statx gives (Linux 5.8 and later), else by the deepest mount point above it; and checked
/// against the file system type statfs reports for the directory itself.
pub fn mount_of(dir: &Path) -> Result<Mount> {
    let text = read_file(Path::new("/proc/self/mountinfo"))
        .ok_or_else(|| MeasureError::Failed("cannot read /proc/self/mountinfo".into()))?;
    let mounts = mountinfo::parse(&text);
    let path = c_path(dir)?;
    let found = mountinfo::mount_of(&mounts, &dir.to_string_lossy(), mount_id(&path))
        .ok_or_else(|| MeasureError::Failed(format!("{}: no mount holds it", dir.display())))?;
    let mut mount = found.clone();
    // SAFETY: statfs fills the struct it is given from a NUL-terminated path.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(path.as_ptr(), &mut st) } != 0 {
        return MeasureError::fail(format!("cannot read the file system of {}", dir.display()));
    }
    // OpenZFS's super block magic, and FUSE's (zfs-fuse): anything else is not ZFS, whatever
    // mountinfo's line says.
    if mount.is_zfs() && !matches!(st.f_type as u64, 0x2fc1_2fc1 | 0x6573_5546) {
        mount.fs_type = format!("a file system of statfs type {:#x}", st.f_type);
    }
    Ok(mount)
}

/// The id of the mount a path is on, where the kernel's statx gives it.
fn mount_id(path: &std::ffi::CStr) -> Option<u64> {
    // SAFETY: statx fills the struct it is given from a NUL-terminated path.
    let mut st: libc::statx = unsafe { std::mem::zeroed() };
    let ok = unsafe {
        libc::statx(
            libc::AT_FDCWD,
            path.as_ptr(),
            0,
            libc::STATX_MNT_ID,
            &mut st,
        )
    } == 0;
    (ok && st.stx_mask & libc::STATX_MNT_ID != 0).then_some(st.stx_mnt_id)
}

/// The bytes of each place a ZFS label may be on a device (or a partition) of `size` bytes:
/// four reads of 256 KiB, opened read-only.
pub fn read_labels(path: &str, size: u64) -> Result<Vec<Vec<u8>>> {
    use std::io::{Seek, SeekFrom};
    let cannot = |e: std::io::Error| MeasureError::Failed(format!("cannot read {path}: {e}"));
    let mut device = fs::File::open(path).map_err(cannot)?;
    zfs_label::offsets(size)
        .into_iter()
        .map(|offset| {
            device.seek(SeekFrom::Start(offset)).map_err(cannot)?;
            let mut label = Vec::new();
            (&mut device)
                .take(zfs_label::LABEL_BYTES)
                .read_to_end(&mut label)
                .map_err(cannot)?;
            Ok(label)
        })
        .collect()
}
