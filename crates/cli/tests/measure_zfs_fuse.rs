//! discover, bench, results and calibrate against a live ZFS: a zfs-fuse pool on files
//! (raidz1-3 + mirror-2 + a spare). `discover` must write a system file `capacity` and
//! `predict` accept; `bench` runs every default workload for two seconds and stores a run each
//! with per-disk samples; `bench --compare` sets measured beside predicted; `calibrate` reads a
//! loop device and refuses one in a pool; bad input gets one line and exit code 2 and writes
//! nothing; a directory name that would inject lines into fio's job file is refused, a scratch
//! directory swapped for a link mid-run redirects nothing, and SIGINT, SIGTERM, SIGHUP and
//! SIGQUIT stop fio and keep what finished. Every `--json` is checked against docs/json.md. Without zfs-fuse, fio or root it
//! says SKIPPED loudly and passes, except in CI (CI=true), where it fails.

mod common;

use common::run;
use common::shapes::{assert_shape, check, shapes};
use common::skip;
use common::zfs::{prerequisites, retry, Daemon, Lab};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const MIB: u64 = 1 << 20;

/// `zpoolsim ARGS` must fail with one line naming `says`, exit code 2.
fn refused(args: &[&str], says: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.starts_with("zpoolsim: ") && err.contains(says),
        "{args:?}: {err}"
    );
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

#[test]
fn measure_a_zfs_fuse_pool() {
    if let Err(why) = prerequisites(&["fio", "losetup", "mkfs.ext4", "mount"]) {
        return skip(
            "measure live test (discover, bench, calibrate on zfs-fuse)",
            &why,
        );
    }
    let started = Instant::now();
    let dir = std::env::temp_dir().join(format!("zpoolsim-measure-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let _daemon = Daemon::start(&dir);
    let mut lab = Lab::new(dir);
    let pool = format!("zpmeasure{}", std::process::id());
    let f = |i: usize| lab.file(&format!("d{i}"), 192 * MIB);
    let files: Vec<String> = (0..6).map(f).collect();
    let mut spec: Vec<String> = vec!["raidz1".into()];
    spec.extend(files[..3].iter().cloned());
    spec.push("mirror".into());
    spec.extend(files[3..5].iter().cloned());
    spec.push("spare".into());
    spec.push(files[5].clone());
    lab.create(&pool, &spec);
    let mount = lab.path(&format!("mnt-{pool}"));

    discover(&lab, &pool);
    not_zfs_inside_a_dataset(&mut lab, &mount);
    bench(&lab, &pool, &mount);
    calibrate(&mut lab);
    eprintln!(
        "measure: discover, bench and calibrate checked in {:?}",
        started.elapsed()
    );
}

fn discover(lab: &Lab, pool: &str) {
    let system = lab.path("system.toml");
    ok(&["discover", pool, "-o", &system]);
    let text = fs::read_to_string(&system).expect("discover wrote the file");
    assert!(
        text.contains("zfs = \"zfs-fuse\"") && text.contains("layout = \"raidz1-3 + mirror-2\""),
        "{text}"
    );
    assert!(
        text.contains("spares = 1") && text.contains("# assumed:"),
        "{text}"
    );
    refused(
        &["discover", pool, "-o", &system],
        "exists; give --force to overwrite it",
    );
    refused(
        &["discover", "nosuchpool"],
        "no pool 'nosuchpool' (pools here: ",
    );
    assert_shape(&["capacity", &system, "--json"], "SpaceReport");
    assert_shape(
        &["predict", &system, "-w", "dd-read", "--json"],
        "Prediction",
    );
    assert_shape(&["discover", pool, "--json"], "Discovered");
}

/// An ext4 file system mounted in a directory of the dataset is not the dataset: bench refuses
/// it by the file system the directory is on, though its path is under the mountpoint.
fn not_zfs_inside_a_dataset(lab: &mut Lab, mount: &str) {
    let image = lab.file("ext4.img", 32 * MIB);
    must_run("mkfs.ext4", &["-q", "-F", &image]);
    let inner = format!("{mount}/ext4");
    fs::create_dir(&inner).expect("a directory in the dataset");
    must_run("mount", &["-o", "loop", &image, &inner]);
    lab.mounts.push(inner.clone());
    refused(
        &["bench", &inner, "--db", &lab.path("results.sqlite")],
        &format!("{inner} is not in a mounted ZFS dataset: it is on ext4 (/dev/loop"),
    );
    must_run("umount", &[&inner]);
    lab.mounts.clear();
    fs::remove_dir(&inner).expect("the directory is empty again");
}

fn must_run(tool: &str, args: &[&str]) {
    let out = Command::new(tool).args(args).output().expect(tool);
    assert!(
        out.status.success(),
        "{tool} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn bench(lab: &Lab, pool: &str, mount: &str) {
    let db = lab.path("results.sqlite");
    refused(
        &["bench", "/tmp", "--db", &db],
        "is not in a mounted ZFS dataset",
    );
    refused(
        &["bench", mount, "--size", "1T", "--db", &db],
        "give a smaller --size",
    );
    let no_fio = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .args(["bench", mount, "--db", &db])
        .env("PATH", "/nonexistent")
        .output()
        .expect("runs");
    assert_eq!(no_fio.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&no_fio.stderr),
        "zpoolsim: fio is not installed (the Debian package fio)\n"
    );
    assert!(!Path::new(&db).exists(), "nothing is written on bad input");

    let all = shapes();
    let out = ok(&[
        "bench",
        mount,
        "--size",
        "32M",
        "--runtime",
        "2",
        "--db",
        &db,
        "--json",
    ]);
    let bench: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    check(&bench, "Bench", "bench --json", &all);
    let runs = bench["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 5);
    for r in runs {
        let disks: Vec<&str> = r["samples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["device"].as_str().unwrap())
            .collect();
        assert!(
            disks.len() >= 5,
            "{}: a sample per disk and second: {disks:?}",
            r["workload"]
        );
        assert!(r["measured"]["iops"].as_f64().unwrap() > 0.0);
    }
    let leftovers: Vec<_> = fs::read_dir(mount).unwrap().flatten().collect();
    assert!(
        leftovers.is_empty(),
        "the bench removes its directory: {leftovers:?}"
    );

    let compared = ok(&["bench", "--compare", "--db", &db]);
    assert!(
        compared.contains(&format!(
            "bench 1 on pool {pool}: measured beside predicted"
        )),
        "{compared}"
    );
    assert!(
        compared.contains("fio-randread:qd=8,size=32M") && compared.contains("d4"),
        "{compared}"
    );
    assert_shape(
        &["bench", "--compare", "--db", &db, "--json"],
        "BenchComparison",
    );
    assert_shape(&["results", "--db", &db, "--json"], "[BenchSummary]");
    assert_shape(&["results", "1", "--db", &db, "--json"], "Bench");
    assert!(ok(&["results", "--db", &db]).contains("dd-write:size=32M"));
    refused(&["results", "9", "--db", &db], "no bench 9 in the results");
    injected(lab, mount);
    swapped(lab, mount);
    interrupted(lab, mount);
}

/// The injection: a directory whose name holds a newline and a fio option of its own
/// (a command run before the job) is refused in one line, runs nothing and stores nothing;
/// an honest name with a colon is benched.
fn injected(lab: &Lab, mount: &str) {
    let marker = lab.path("pwned");
    let hostile = format!("{mount}/x\nexec_prerun=touch {marker}\n;");
    // The marker's path makes it directories within directories: a path all the same.
    fs::create_dir_all(&hostile).expect("a directory named with newlines");
    let db = lab.path("injected.sqlite");
    refused(
        &["bench", &hostile, "--db", &db],
        "fio's job file cannot name this directory: a control character",
    );
    assert!(!Path::new(&marker).exists(), "no command ran");
    assert!(!Path::new(&db).exists(), "nothing stored");
    fs::remove_dir_all(format!("{mount}/x\nexec_prerun=touch ")).expect("removed");

    let colon = format!("{mount}/a:b");
    fs::create_dir(&colon).expect("a directory with a colon");
    let short = ["--workloads", "dd-read", "--size", "8M", "--runtime", "1"];
    let out = ok(&[&["bench", &colon, "--db", &db, "--json"][..], &short[..]].concat());
    let bench: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let scratch = bench["directory"].as_str().unwrap();
    assert!(
        scratch.starts_with(&format!("{colon}/zpoolsim-bench-")),
        "{scratch}"
    );
    assert!(!bench["runs"][0]["samples"].as_array().unwrap().is_empty());
    assert_eq!(
        fs::read_dir(&colon).unwrap().count(),
        0,
        "its scratch removed"
    );
    fs::remove_dir(&colon).expect("removed");
}

/// The symlink race: while fio runs, a second process renames the scratch directory
/// away and links its name to a directory of someone else's files. Nothing there is written,
/// read or removed; the run is refused, not stored.
fn swapped(lab: &Lab, mount: &str) {
    let victim = lab.path("victim");
    fs::create_dir_all(&victim).expect("the victim's directory");
    for (name, text) in [
        ("job.fio", "root's job"),
        ("fio.json", "{\"forged\": 1}"),
        ("keep", "k"),
    ] {
        fs::write(Path::new(&victim).join(name), text).expect("a victim's file");
    }
    let db = lab.path("swapped.sqlite");
    let child = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .args([
            "bench",
            mount,
            "--size",
            "16M",
            "--runtime",
            "3",
            "--db",
            &db,
        ])
        .args(["--workloads", "dd-write"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("bench starts");
    let scratch = format!("{mount}/zpoolsim-bench-{}", child.id());
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while processes_naming(&format!("/proc/{}/fd/", child.id())).is_empty() {
        assert!(Instant::now() < deadline, "fio did not start within 60 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let moved = format!("{mount}/moved");
    let swap = format!("mv '{scratch}' '{moved}' && ln -s '{victim}' '{scratch}'");
    must_run("sh", &["-c", &swap]);
    let out = child.wait_with_output().expect("bench ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        format!("zpoolsim: dd-write:size=16M: {scratch} was renamed or replaced while fio ran (another user can write in its directory): the run is not kept; bench a directory only you can write in\n")
    );
    let kept: Vec<String> = ["job.fio", "fio.json", "keep"]
        .iter()
        .map(|n| {
            fs::read_to_string(Path::new(&victim).join(n)).expect("the victim's file is there")
        })
        .collect();
    assert_eq!(kept, ["root's job", "{\"forged\": 1}", "k"]);
    assert_eq!(
        fs::read_dir(&victim).unwrap().count(),
        3,
        "nothing written there"
    );
    assert_eq!(
        fs::read_dir(&moved).unwrap().count(),
        0,
        "fio's files removed by the handle"
    );
    assert_eq!(stored_runs(&db), 0, "nothing stored");
    fs::remove_file(&scratch).expect("the link");
    fs::remove_dir(&moved).expect("our emptied directory");
}

/// Runs of the store at `db` (0 while it does not exist).
fn stored_runs(db: &str) -> i64 {
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return 0;
    };
    conn.query_row("SELECT count(*) FROM run", [], |r| r.get(0))
        .unwrap_or(0)
}

/// Processes whose command line names `needle` (fio's, by its job file's directory).
fn processes_naming(needle: &str) -> Vec<String> {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(needle))
        .collect()
}

/// A bench stopped by a signal: `signal` sent once `finished` runs are stored; it must stop
/// fio (no process of its is left), remove its directory, keep what finished and say so.
fn stop_bench(lab: &Lab, mount: &str, signal: i32, finished: i64) -> (String, String, String) {
    let db = lab.path(&format!("stopped-{signal}.sqlite"));
    let child = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .args([
            "bench",
            mount,
            "--size",
            "32M",
            "--runtime",
            "3",
            "--db",
            &db,
        ])
        .args(["--workloads", "dd-read", "dd-write", "fio-randread:qd=8"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("bench starts");
    let scratch = format!("{mount}/zpoolsim-bench-{}", child.id());
    // fio reaches the directory through the bench's descriptor, and names it so.
    let fio_names = format!("/proc/{}/fd/", child.id());
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while stored_runs(&db) < finished || !Path::new(&scratch).exists() {
        assert!(Instant::now() < deadline, "no run stored within 60 s");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // SAFETY: a signal to the bench this test started, by its pid.
    unsafe { libc::kill(child.id() as i32, signal) };
    let out = child.wait_with_output().expect("bench ends");
    assert_eq!(out.status.code(), Some(2));
    assert!(!Path::new(&scratch).exists(), "{scratch} removed");
    assert_eq!(
        processes_naming(&fio_names),
        Vec::<String>::new(),
        "no fio left"
    );
    assert_eq!(
        stored_runs(&db),
        finished,
        "what finished is kept, nothing more"
    );
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        scratch,
        db,
    )
}

fn interrupted(lab: &Lab, mount: &str) {
    let (err, scratch, db) = stop_bench(lab, mount, libc::SIGINT, 1);
    assert_eq!(
        err,
        format!("zpoolsim: stopped by Ctrl-C (SIGINT): fio was stopped and {scratch} removed; the 1 of 3 workloads that finished are kept as bench 1\n")
    );
    assert!(ok(&["results", "1", "--db", &db]).contains("dd-read:size=32M"));
    let (err, scratch, _) = stop_bench(lab, mount, libc::SIGTERM, 0);
    assert_eq!(
        err,
        format!("zpoolsim: stopped by SIGTERM: fio was stopped and {scratch} removed; no workload had finished, so nothing was stored\n")
    );
    // A closed SSH session: fio, in its own process group, is not sent the SIGHUP; the bench is.
    let (err, scratch, _) = stop_bench(lab, mount, libc::SIGHUP, 1);
    assert_eq!(
        err,
        format!("zpoolsim: stopped by SIGHUP (the terminal or session closed): fio was stopped and {scratch} removed; the 1 of 3 workloads that finished are kept as bench 1\n")
    );
    let (err, scratch, _) = stop_bench(lab, mount, libc::SIGQUIT, 0);
    assert_eq!(
        err,
        format!("zpoolsim: stopped by SIGQUIT: fio was stopped and {scratch} removed; no workload had finished, so nothing was stored\n")
    );
}

fn calibrate(lab: &mut Lab) {
    let dev = lab.loop_device("loop.img", 64 * MIB);
    let entry = lab.path("calibrated.toml");
    let short = ["calibrate", "--raw", &dev, "--zones", "2", "--runtime", "1"];
    ok(&[&short[..], &["-o", &entry]].concat());
    let name = dev.trim_start_matches("/dev/");
    let catalog = ok(&["catalog", "--catalog", &entry, "--kind", "disk"]);
    assert!(catalog.contains(&format!("calibrated-{name}")), "{catalog}");
    assert_shape(&[&short[..], &["--json"]].concat(), "Calibration");
    let pool = format!("zploop{}", std::process::id());
    lab.create(&pool, std::slice::from_ref(&dev));
    refused(
        &["calibrate", "--raw", &dev],
        &format!("{dev} is part of the pool '{pool}'"),
    );
    // Destroyed, the pool's labels stay on the disk (zpool import -D finds them), and lsblk
    // here has no udev to say zfs_member: calibrate reads them itself.
    retry("zpool", &["destroy", "-f", &pool]).expect("destroy");
    lab.pools.retain(|p| p != &pool);
    refused(
        &["calibrate", "--raw", &dev],
        &format!("{dev} carries a ZFS label ({dev} holds one"),
    );
}
