//! The results store refuses what cannot take a bench before any measurement (an empty file,
//! a file that is not a database, one another process holds), and keeps each run the moment
//! it finishes, in a transaction of its own.

use std::collections::BTreeMap;
use std::path::PathBuf;
use zpoolsim_store::{Bench, FleetQuery, Host, Location, Measured, Run, Server, Store};

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
        uid: "00ff".into(),
        host: Host {
            name: "box".into(),
            machine_id: "4f1c".into(),
        },
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
    let e = Store::open(&Location::Sqlite(path.clone()))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            "{} is an empty file, not a results database: remove it, or give another --db",
            path.display()
        )
    );
    assert_eq!(
        Store::check(&Location::Sqlite(path.clone()))
            .unwrap_err()
            .to_string(),
        e
    );
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        0,
        "not made a database"
    );
    let e = Store::open(&Location::Sqlite(dir.0.clone()))
        .unwrap_err()
        .to_string();
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
    let e = Store::check(&Location::Sqlite(path.clone()))
        .unwrap_err()
        .to_string();
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
    drop(Store::open(&Location::Sqlite(path.clone())).unwrap());
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let e = Store::check(&Location::Sqlite(path.clone()))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("results database {}: ", path.display()))
            && e.contains("database is locked"),
        "{e}"
    );
    holder.execute_batch("ROLLBACK").unwrap();
    Store::check(&Location::Sqlite(path.clone())).unwrap();
}

#[test]
fn each_run_is_kept_as_it_finishes() {
    let dir = Scratch::new("store-keep");
    let path = dir.0.join("results.sqlite");
    assert!(
        Store::check(&Location::Sqlite(path.clone())).is_ok() && !path.exists(),
        "check makes nothing"
    );
    let mut store = Store::open(&Location::Sqlite(path.clone())).unwrap();
    let mut b = bench();
    let first = run("dd-read:size=32M");
    store.keep(&mut b, &first).unwrap();
    assert_eq!(b.id, Some(1));
    // Another reader sees the first run before the bench goes on.
    let seen = Store::open_existing(&Location::Sqlite(path.clone()))
        .unwrap()
        .load(1)
        .unwrap();
    assert_eq!(seen.runs, std::slice::from_ref(&first));
    b.runs.push(first);
    store.keep(&mut b, &run("dd-write:size=32M")).unwrap();
    let list = Store::open_existing(&Location::Sqlite(path.clone()))
        .unwrap()
        .list()
        .unwrap();
    assert_eq!(list.len(), 1, "one bench, its row made once");
    assert_eq!(list[0].workloads, ["dd-read:size=32M", "dd-write:size=32M"]);
}

/// A database of schema version 1 (zpoolsim before the fleet) is brought to version 2 in
/// place: each bench gets an id of its own, each run the predicted figures of its prediction.
#[test]
fn a_version_1_store_is_migrated() {
    let dir = Scratch::new("store-v1");
    let path = dir.0.join("v1.sqlite");
    let v1 = rusqlite::Connection::open(&path).unwrap();
    v1.execute_batch(
        "CREATE TABLE bench (id INTEGER PRIMARY KEY, started TEXT NOT NULL, zpoolsim_version TEXT NOT NULL, pool TEXT NOT NULL, dataset TEXT NOT NULL, directory TEXT NOT NULL, system_toml TEXT NOT NULL);
         CREATE TABLE run (id INTEGER PRIMARY KEY, bench_id INTEGER NOT NULL REFERENCES bench(id), workload TEXT NOT NULL, runtime_s REAL NOT NULL, data_bytes INTEGER NOT NULL, job_file TEXT NOT NULL, fio_json TEXT NOT NULL, prediction_json TEXT NOT NULL, read_bytes_per_s REAL NOT NULL, write_bytes_per_s REAL NOT NULL, iops REAL NOT NULL, mean_latency_s REAL NOT NULL);
         CREATE TABLE disk_sample (run_id INTEGER NOT NULL REFERENCES run(id), second INTEGER NOT NULL, device TEXT NOT NULL, vdev TEXT, read_ops_per_s REAL NOT NULL, write_ops_per_s REAL NOT NULL, read_bytes_per_s REAL NOT NULL, write_bytes_per_s REAL NOT NULL);
         CREATE TABLE disk_busy (run_id INTEGER NOT NULL REFERENCES run(id), device TEXT NOT NULL, utilization REAL NOT NULL);
         INSERT INTO bench VALUES (1, '2026-01-01T00:00:00Z', '0.1.0', 'tank', 'tank', '/tank/x', 'name = \"x\"');
         INSERT INTO run VALUES (1, 1, 'dd-read:size=1G', 30, 1073741824, '[job]', '{}', '{\"throughput_bytes_per_s\": 2e8, \"expected_error_pct\": 12.7, \"bottleneck\": {\"sentence\": \"the disks\"}}', 1e8, 0, 100, 0.01);
         PRAGMA user_version = 1;",
    )
    .unwrap();
    drop(v1);
    let mut store = Store::open(&Location::Sqlite(path.clone())).unwrap();
    let b = store.load(1).unwrap();
    assert_eq!(b.uid.len(), 32, "{}", b.uid);
    assert!(b.uid.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(
        b.host,
        Host {
            name: String::new(),
            machine_id: String::new()
        }
    );
    let page = store
        .fleet(
            &FleetQuery {
                limit: 10,
                ..Default::default()
            },
            None,
        )
        .unwrap();
    let w = &page.pools[0].workloads[0];
    assert_eq!(
        (
            w.predicted_bytes_per_s,
            w.ratio,
            w.expected_error_pct,
            w.short,
            w.bottleneck.as_str()
        ),
        (2e8, Some(0.5), 12.7, true, "the disks")
    );
    drop(store);
    // Opened again, it is not migrated twice.
    let again = Store::open(&Location::Sqlite(path.clone()))
        .unwrap()
        .load(1)
        .unwrap();
    assert_eq!(again.uid, b.uid);
}

#[test]
fn a_url_is_a_server_and_anything_else_a_file() {
    let url = "postgres://team:secret@db/zpoolsim?password=secret";
    let at = Location::from_flag(Some(url)).unwrap();
    assert!(matches!(&at, Location::Postgres(s) if **s == Server::parse(url).unwrap()));
    // The printed form is built from the parsed fields: no password in any form.
    assert_eq!(at.to_string(), "postgres://team@db:5432/zpoolsim");
    assert_eq!(
        format!("{at:?}"),
        "Postgres(postgres://team@db:5432/zpoolsim)"
    );
    assert!(matches!(
        Location::from_flag(Some("postgresql://h/d")),
        Ok(Location::Postgres(_))
    ));
    assert_eq!(
        Location::from_flag(Some("postgres.sqlite")).unwrap(),
        Location::Sqlite("postgres.sqlite".into())
    );
    assert!(!at.is_absent(), "a server is always there to ask");
}
