//! The results store refuses what cannot take a bench before any measurement (an empty file,
//! a file that is not a database, one another process holds), and keeps each run the moment
//! it finishes, in a transaction of its own.

use std::collections::BTreeMap;
use std::path::PathBuf;
use zpoolsim_measure::bench::{Bench, Run};
use zpoolsim_measure::fio_json::Measured;
use zpoolsim_measure::store::Store;

/// A directory of this test's own, removed at the end even when it fails.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("zpoolsim-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(workload: &str) -> Run {
    Run {
        workload: workload.into(),
        runtime_s: 2.0,
        data_bytes: 32 << 20,
        job_file: "[job]\n".into(),
        measured: Measured {
            read_bytes_per_s: 50e6,
            write_bytes_per_s: 0.0,
            iops: 50.0,
            mean_latency_s: 0.02,
        },
        prediction: serde_json::json!({"throughput_bytes_per_s": 60e6}),
        fio_json: "{}".into(),
        samples: Vec::new(),
        busy: BTreeMap::new(),
    }
}

fn bench() -> Bench {
    Bench {
        id: None,
        started: "2026-01-01T00:00:00Z".into(),
        zpoolsim_version: "0.1.0".into(),
        pool: "tank".into(),
        dataset: "tank".into(),
        directory: "/tank/zpoolsim-bench-1".into(),
        system_toml: "name = \"x\"\n".into(),
        runs: Vec::new(),
    }
}

#[test]
fn an_empty_file_is_refused_and_left_empty() {
    let dir = Scratch::new("store-empty");
    let path = dir.0.join("empty.sqlite");
    std::fs::write(&path, b"").unwrap();
    let e = Store::open(&path).unwrap_err().0;
    assert_eq!(
        e,
        format!(
            "{} is an empty file, not a results database: remove it, or give another --db",
            path.display()
        )
    );
    assert_eq!(Store::check(&path).unwrap_err().0, e);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        0,
        "not made a database"
    );
    let e = Store::open(&dir.0).unwrap_err().0;
    assert!(
        e.ends_with("is not a regular file: give a results database (a file bench made)"),
        "{e}"
    );
}

#[test]
fn a_file_that_is_not_a_database_is_refused() {
    let dir = Scratch::new("store-corrupt");
    let path = dir.0.join("corrupt.sqlite");
    std::fs::write(&path, vec![0x5a; 8192]).unwrap();
    let e = Store::check(&path).unwrap_err().0;
    assert_eq!(
        e,
        format!(
            "results database {}: file is not a database",
            path.display()
        )
    );
}

#[test]
fn a_store_another_process_holds_is_refused() {
    let dir = Scratch::new("store-locked");
    let path = dir.0.join("locked.sqlite");
    drop(Store::open(&path).unwrap());
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let e = Store::check(&path).unwrap_err().0;
    assert!(
        e.starts_with(&format!("results database {}: ", path.display()))
            && e.contains("database is locked"),
        "{e}"
    );
    holder.execute_batch("ROLLBACK").unwrap();
    Store::check(&path).unwrap();
}

#[test]
fn each_run_is_kept_as_it_finishes() {
    let dir = Scratch::new("store-keep");
    let path = dir.0.join("results.sqlite");
    assert!(
        Store::check(&path).is_ok() && !path.exists(),
        "check makes nothing"
    );
    let mut store = Store::open(&path).unwrap();
    let mut b = bench();
    let first = run("dd-read:size=32M");
    store.keep(&mut b, &first).unwrap();
    assert_eq!(b.id, Some(1));
    // Another reader sees the first run before the bench goes on.
    let seen = Store::open_existing(&path).unwrap().load(1).unwrap();
    assert_eq!(seen.runs, [first.clone()]);
    b.runs.push(first);
    store.keep(&mut b, &run("dd-write:size=32M")).unwrap();
    let list = Store::open_existing(&path).unwrap().list().unwrap();
    assert_eq!(list.len(), 1, "one bench, its row made once");
    assert_eq!(list[0].workloads, ["dd-read:size=32M", "dd-write:size=32M"]);
}
