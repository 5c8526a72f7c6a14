//! The bench's job files, the results database keeping what a bench measured, and the
//! comparison, on fixed inputs (the fio outputs are this VM's, see parse's fixtures/README.md).

use crate::run::with_size;
use crate::*;
use model::Workload;
use parse::fio_json::Measured;
use std::collections::BTreeMap;
use std::path::Path;
use store::{Bench, Run, Sample};

fn fixture(path: &str) -> String {
    let file = format!(
        "{}/../parse/tests/fixtures/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn job(spec: &str) -> fio_job::Job {
    fio_job::job(
        &Workload::parse(spec).unwrap(),
        Path::new("/tank/b"),
        64 << 20,
        5,
    )
    .unwrap()
}

#[test]
fn job_files_are_the_models_workloads() {
    let seq = job("iozone-write:threads=4");
    assert!(seq.text.contains("\nrw=write\nnumjobs=4\n"), "{}", seq.text);
    assert!(seq.text.contains("ioengine=psync\niodepth=1\n"));
    assert!(
        seq.text.contains("bs=1048576\nsize=16777216\n"),
        "each thread its quarter"
    );
    assert!(seq.text.contains("end_fsync=1"));
    assert_eq!(seq.file_bytes, 64 << 20);
    let read = job("dd-read");
    assert!(read.text.contains("end_fsync=0") && read.text.contains("rw=read"));
    let random = job("fio-randrw:bs=8K,qd=16,threads=2");
    assert!(
        random.text.contains("ioengine=io_uring\niodepth=16\n"),
        "{}",
        random.text
    );
    assert!(random
        .text
        .contains("rw=randrw\nrwmixread=70\nnumjobs=2\nfilename=zpoolsim-random\n"));
    assert_eq!(random.file_bytes, 64 << 20, "one shared file");
    let refuse = |spec: &str| {
        fio_job::job(
            &Workload::parse(spec).unwrap(),
            Path::new("/t"),
            64 << 20,
            5,
        )
        .unwrap_err()
        .to_string()
    };
    assert!(refuse("raw-read").contains("calibrate --raw"));
    assert!(refuse("fio-randread:volblocksize=16K").contains("never on a device"));
    assert!(refuse("bonnie-rewrite").contains("are not among them"));
    assert!(refuse("fio --rw=rw --bs=1M").contains("fio's rw=rw"));
    assert!(refuse("dd-read:qd=4").contains("qd is for fio-rand*"));
    // Issue #18: stored as engine=libaio,direct=1, run as psync with direct=0.
    assert_eq!(
        refuse("fio-randwrite:engine=libaio,direct=1"),
        "fio-randwrite: bench's fio job does not carry engine (docs/measure.md: the job file): leave it out, or predict it with zpoolsim predict"
    );
    assert!(refuse("fio-randread:direct=1").contains("does not carry direct"));
    assert!(refuse("dd-write:sync=1").contains("does not carry sync"));
    assert!(refuse("dd-write:threads=128").contains("less than one 1048576-byte block per thread"));
    assert_eq!(
        with_size("fio-randread:qd=8", 1 << 30),
        "fio-randread:qd=8,size=1G"
    );
    assert_eq!(with_size("dd-read", 64 << 20), "dd-read:size=64M");
    assert_eq!(with_size("dd-read:size=2G", 64 << 20), "dd-read:size=2G");
}

#[test]
fn iostat_samples_skip_the_first_report_and_keep_each_disk() {
    let samples = run::samples(&fixture("zpool/zfs-fuse-iostat.txt"));
    assert_eq!(
        samples.len(),
        10,
        "two reports after the first, five disks each"
    );
    assert_eq!(
        (samples[9].second, samples[9].device.as_str()),
        (1, "/tmp/zf/d4")
    );
}

fn sample(second: u32, device: &str, vdev: &str, write_mb: f64) -> Sample {
    Sample {
        second,
        device: device.into(),
        vdev: Some(vdev.into()),
        read_ops_per_s: 0.0,
        write_ops_per_s: write_mb * 8.0,
        read_bytes_per_s: 0.0,
        write_bytes_per_s: write_mb * 1e6,
    }
}

/// A raidz1-3 of which one disk (sdc) wrote 40% less than the others, and was fully busy.
fn bench() -> Bench {
    let prediction = serde_json::json!({
        "throughput_bytes_per_s": 300e6, "iops": 300.0, "mean_latency_s": 0.003,
        "bottleneck": {"sentence": "the disks limit the pool"},
        "latency_s": {"p50": 0.002, "p90": 0.004, "p99": 0.009, "p999": 0.02, "mean": 0.003, "stations": []},
        "devices": [{"name": "sdc", "vdev": "raidz1-0", "read_ops_per_s": 0.0, "write_ops_per_s": 800.0,
                     "read_bytes_per_s": 0.0, "write_bytes_per_s": 150e6, "utilization": 0.7}],
    });
    let mut samples = Vec::new();
    for s in 0..2 {
        samples.push(sample(s, "sda", "raidz1-0", 100.0));
        samples.push(sample(s, "sdb", "raidz1-0", 100.0));
        samples.push(sample(s, "sdc", "raidz1-0", 60.0));
    }
    let busy = BTreeMap::from([
        ("sda".to_string(), 0.4),
        ("sdb".to_string(), 0.5),
        ("sdc".to_string(), 0.98),
    ]);
    Bench {
        id: None,
        uid: "0123456789abcdef0123456789abcdef".into(),
        host: store::Host {
            name: "box".into(),
            machine_id: "4f1c".into(),
        },
        started: store::utc(1_767_225_600),
        zpoolsim_version: "0.1.0".into(),
        pool: "tank".into(),
        dataset: "tank/b".into(),
        directory: "/tank/b/zpoolsim-bench-1".into(),
        system_toml: "name = \"x\"\n[[dataset]]\nname = \"tank/b\"\nrecordsize = 131072\n".into(),
        runs: vec![Run {
            workload: "fio-randwrite:qd=8,size=64M".into(),
            runtime_s: 2.0,
            data_bytes: 64 << 20,
            job_file: "[x]\n".into(),
            measured: Measured {
                read_bytes_per_s: 0.0,
                write_bytes_per_s: 120e6,
                iops: 29_000.0,
                mean_latency_s: 0.0003,
            },
            prediction,
            fio_json: fixture("fio/randrw-io_uring.json"),
            samples,
            busy,
        }],
    }
}

#[test]
fn the_database_keeps_what_was_measured() {
    let dir = std::env::temp_dir().join(format!("zpoolsim-store-test-{}", std::process::id()));
    let path = dir.join("sub/results.sqlite");
    let at = store::Location::Sqlite(path.clone());
    let mut s = store::Store::open(&at).unwrap();
    let mut b = bench();
    let id = s.save(&b).unwrap();
    assert_eq!((id, s.latest().unwrap()), (1, Some(1)));
    b.id = Some(id);
    let list = s.list().unwrap();
    assert_eq!(list[0].workloads, ["fio-randwrite:qd=8,size=64M"]);
    assert_eq!(list[0].started, "2026-01-01T00:00:00Z");
    drop(s);
    let again = store::Store::open_existing(&at).unwrap().load(1).unwrap();
    assert_eq!(again, b);
    let none = store::Location::Sqlite(dir.join("none.sqlite"));
    assert!(store::Store::open_existing(&none)
        .unwrap_err()
        .to_string()
        .contains("run `zpoolsim bench` first"));
    assert_eq!(
        store::Store::open_existing(&at)
            .unwrap()
            .load(7)
            .unwrap_err()
            .to_string(),
        "no bench 7 in the results"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// fio's clat percentiles of each side, read from the stored fio JSON (the fixture's
/// `clat_ns.percentile`), beside the simulated ones the prediction kept; the same in JSON.
#[test]
fn comparison_sets_fios_percentiles_beside_the_simulated() {
    let c = compare::compare(&bench());
    let w = &c.workloads[0];
    let measured: Vec<(&str, f64, f64)> = w
        .measured_clat_s
        .iter()
        .map(|s| (s.side, s.clat_s.p50, s.clat_s.p999))
        .collect();
    assert_eq!(
        measured,
        [
            ("read", 34_048e-9, 700_416e-9),
            ("write", 313_344e-9, 57_933_824e-9)
        ]
    );
    let p = w.predicted_percentiles_s.expect("the prediction kept them");
    assert_eq!([p.p50, p.p90, p.p99, p.p999], [0.002, 0.004, 0.009, 0.02]);
    let json = serde_json::to_value(&c).unwrap();
    let row = &json["workloads"][0];
    assert_eq!(row["measured_clat_s"][1]["side"], "write");
    assert_eq!(row["measured_clat_s"][1]["p99"], 2_146_304e-9);
    assert_eq!(row["predicted_percentiles_s"]["p99"], 0.009);
    // A bench stored before the simulation kept no percentiles: none predicted.
    let mut old = bench();
    old.runs[0].prediction["latency_s"] = serde_json::Value::Null;
    assert_eq!(
        compare::compare(&old).workloads[0].predicted_percentiles_s,
        None
    );
}

#[test]
fn comparison_names_the_slow_disk_and_the_records() {
    let c = compare::compare(&bench());
    let w = &c.workloads[0];
    assert_eq!(
        (w.measured_bytes_per_s, w.predicted_bytes_per_s, w.ratio),
        (120e6, 300e6, 0.4)
    );
    assert_eq!(c.disks.len(), 3);
    let sdc = c.disks.iter().find(|d| d.device == "sdc").unwrap();
    assert_eq!(
        (sdc.measured.write_bytes_per_s, sdc.measured.utilization),
        (60e6, Some(0.98))
    );
    assert_eq!(sdc.predicted.unwrap().write_bytes_per_s, 150e6);
    assert_eq!(
        c.findings,
        [
            "fio-randwrite:qd=8,size=64M: measured 120.0 MB/s, 60% below the 300.0 MB/s predicted; the model's limit: the disks limit the pool",
            "sdc moved 40% less than its vdev peers in raidz1-0 under fio-randwrite:qd=8,size=64M (60.0 MB/s against 100.0 MB/s each)",
            "sdc was 98% busy under fio-randwrite:qd=8,size=64M while its peers in raidz1-0 averaged 45%: a slow disk or a slow path",
            "fio-randwrite:qd=8,size=64M: 4096-byte random writes into 131072-byte records: each write rewrites a whole record (recordsize=4096 on this dataset would match them)",
        ]
    );
}

#[test]
fn a_job_name_is_a_plain_word_and_never_the_global_section() {
    assert_eq!(fio_ini::section("fio-randrw"), Ok("fio-randrw"));
    for name in [
        "",
        "global",
        "globalx",
        "a=b",
        "x]\n[y",
        "a;b",
        "a b",
        &"n".repeat(256),
    ] {
        let e = fio_ini::section(name).unwrap_err().to_string();
        assert!(
            e.ends_with(": not a fio job name (letters, digits and -_.+, at most 255, not global)"),
            "{e}"
        );
    }
}

/// The swap: another user renames the scratch directory away mid-run and links its name
/// to a directory of someone else's files. Nothing is written, read or removed there.
#[test]
fn a_scratch_directory_swapped_for_a_link_redirects_nothing() {
    let base = std::env::temp_dir().join(format!("zpoolsim-scratch-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let victim = base.join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::write(victim.join("job.fio"), "root's").unwrap();
    std::fs::write(victim.join("fio.json"), "{\"forged\": true}").unwrap();
    let path = base.join("zpoolsim-bench-1");
    let work = scratch::Scratch::create(&path).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
    work.write("fio.json", "{\"ours\": 1}").unwrap();
    assert!(work.in_place());

    std::fs::rename(&path, base.join("moved")).unwrap();
    std::os::unix::fs::symlink(&victim, &path).unwrap();
    assert!(!work.in_place(), "the name no longer leads to it");
    // Through the handle, and through /proc as fio reaches it: ours, not the victim's.
    assert_eq!(work.read("fio.json").unwrap(), "{\"ours\": 1}");
    let via_proc = std::fs::read_to_string(work.fio_path().join("fio.json")).unwrap();
    assert_eq!(via_proc, "{\"ours\": 1}");
    work.write("job.fio", "ours").unwrap();
    assert!(
        work.write("job.fio", "again").is_err(),
        "never an existing file"
    );
    drop(work);

    assert_eq!(
        std::fs::read_to_string(victim.join("job.fio")).unwrap(),
        "root's"
    );
    assert!(
        victim.join("fio.json").exists(),
        "the victim's files are all there"
    );
    assert!(
        std::fs::symlink_metadata(&path).unwrap().is_symlink(),
        "the link is left alone"
    );
    assert_eq!(
        std::fs::read_dir(base.join("moved")).unwrap().count(),
        0,
        "ours emptied"
    );
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_scratch_directory_is_new_and_removed_when_done() {
    let base = std::env::temp_dir().join(format!("zpoolsim-scratch-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(base.join("zpoolsim-bench-2")).unwrap();
    let e = scratch::Scratch::create(&base.join("zpoolsim-bench-2"))
        .err()
        .unwrap();
    assert!(e.to_string().starts_with("cannot create "), "{e}");
    let work = scratch::Scratch::create(&base.join("zpoolsim-bench-3")).unwrap();
    work.write("a", "1").unwrap();
    work.clear();
    assert_eq!(work.read("a"), None);
    drop(work);
    assert!(!base.join("zpoolsim-bench-3").exists());
    std::fs::remove_dir_all(&base).unwrap();
}

/// A session's end (SIGHUP) or Ctrl-\ (SIGQUIT) is noted like Ctrl-C, not the end of the
/// process with fio left running (before, SIGHUP ended this very test).
#[test]
fn every_signal_that_ends_a_session_is_noted() {
    interrupt::catch();
    for (signal, name) in [
        (libc::SIGHUP, "SIGHUP (the terminal or session closed)"),
        (libc::SIGQUIT, "SIGQUIT"),
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGINT, "Ctrl-C (SIGINT)"),
    ] {
        // SAFETY: raise() delivers the signal to this thread; the handler stores to an atomic.
        assert_eq!(unsafe { libc::raise(signal) }, 0);
        assert_eq!(interrupt::caught(), Some(name));
    }
}

fn ready() -> run::Ready {
    run::Ready {
        pool: "tank".into(),
        dataset: "tank/b".into(),
        directory: "/tank/b/zpoolsim-bench-1".into(),
        system_toml: String::new(),
        leaves: BTreeMap::new(),
        jobs: Vec::new(),
        runtime_s: 2,
        data_bytes: 4 << 20,
    }
}

fn dd_write() -> run::Job {
    run::Job {
        spec: "dd-write:size=4M".into(),
        workload: Workload::parse("dd-write:size=4M").unwrap(),
        prediction: serde_json::Value::Null,
    }
}

/// fio's ENOSPC (captured on a full tmpfs) names the full pool; another failure gives fio's
/// own line, or the error a job ended with.
#[test]
fn a_full_pool_is_named_not_no_message() {
    let (json, stderr) = (
        fixture("fio/enospc-tmpfs.json"),
        fixture("fio/enospc-tmpfs.stderr"),
    );
    let full = "dd-write:size=4M: the pool tank is full: fio could not write its files (No space left on device); free space in tank/b or give a smaller --size";
    let fails = |what, stderr: &str, json: &str| {
        run::fio_failed(&ready(), &dd_write(), what, stderr, json).to_string()
    };
    assert_eq!(fails("failed", &stderr, &json), full);
    assert_eq!(fails("failed", "", &json), full, "the job's error 28 alone");
    assert_eq!(fails("could not lay out its files", &stderr, ""), full);
    assert_eq!(
        fails(
            "failed",
            "",
            &json.replace("\"error\" : 28", "\"error\" : 5")
        ),
        "dd-write:size=4M: fio failed: a job ended with Input/output error (os error 5)"
    );
    assert_eq!(
        fails("failed", "fio: pid=7, err=13/file:filesetup.c:240, func=open, error=Permission denied\n", ""),
        "dd-write:size=4M: fio failed: fio: pid=7, err=13/file:filesetup.c:240, func=open, error=Permission denied"
    );
    assert_eq!(
        fails("failed", "", ""),
        "dd-write:size=4M: fio failed: no message"
    );
}

/// zpool iostat under de_DE.UTF-8 printed `11,1M`: no per-disk row read, and the bench kept
/// none while reporting success. Now that is a failure stated.
#[test]
fn no_per_disk_sample_is_a_failure_stated() {
    let file = format!(
        "{}/../parse/tests/fixtures/zpool/zfs-fuse-iostat.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let comma = format!("sed 's/\\([0-9]\\)\\.\\([0-9]\\)/\\1,\\2/g' {file}; exec sleep 30");
    let sampler = discover::runner::Background::start("sh", &["-c", &comma]).unwrap();
    let e = run::sampled(sampler, std::time::Instant::now(), "dd-write").unwrap_err();
    assert_eq!(
        e.to_string(),
        "dd-write: zpool iostat gave no per-disk sample while fio ran (it printed \"capacity     operations    bandwidth\"): the run is not kept"
    );
}
