//! Benches made with the results store's own API, no fio: the fleet of fleet.rs and of the
//! fleet page's test (web_page.rs).

use serde_json::json;
use std::collections::BTreeMap;
use store::{utc, Bench, Host, Location, Measured, Run, Store};

pub(crate) const MB: f64 = 1e6;
pub(crate) const DAY: i64 = 86_400;

pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// A run of `workload`: `measured` against `predicted` MB/s, expected error `err` %.
pub(crate) fn run_of(workload: &str, measured: f64, predicted: f64, err: f64) -> Run {
    Run {
        workload: workload.into(),
        runtime_s: 30.0,
        data_bytes: 1 << 30,
        job_file: "[job]\n".into(),
        measured: Measured {
            read_bytes_per_s: measured * MB,
            write_bytes_per_s: 0.0,
            iops: measured,
            mean_latency_s: 0.01,
        },
        prediction: json!({
            "throughput_bytes_per_s": predicted * MB,
            "expected_error_pct": err,
            "bottleneck": {"sentence": format!("the disks limit {workload}")},
        }),
        fio_json: "{\"jobs\": []}".into(),
        samples: Vec::new(),
        busy: BTreeMap::new(),
    }
}

pub(crate) fn bench(host: &str, pool: &str, age_s: i64, runs: Vec<Run>) -> Bench {
    Bench {
        id: None,
        uid: store::new_uid(),
        host: Host {
            name: host.into(),
            machine_id: format!("{host}-id"),
        },
        started: utc(now() - age_s),
        zpoolsim_version: "0.1.0".into(),
        pool: pool.into(),
        dataset: pool.into(),
        directory: format!("/{pool}/zpoolsim-bench-1"),
        system_toml: std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/raidz2-10x4tb.toml"
        ))
        .unwrap(),
        runs,
    }
}

/// Four pools of three hosts: alpha's tank as predicted (an old slow bench behind a newer
/// one), beta's tank at 40% of its prediction, beta's fast above it, gamma's only bench six
/// years old.
pub(crate) fn fleet_benches() -> Vec<Bench> {
    vec![
        bench(
            "alpha",
            "tank",
            2000 * DAY,
            vec![run_of("dd-read:size=1G", 100.0, 250.0, 12.7)],
        ),
        bench(
            "gamma",
            "old",
            2000 * DAY,
            vec![run_of("dd-read:size=1G", 240.0, 250.0, 12.7)],
        ),
        bench(
            "beta",
            "fast",
            10 * DAY,
            vec![run_of("dd-read:size=1G", 300.0, 250.0, 12.7)],
        ),
        bench(
            "alpha",
            "tank",
            3600,
            vec![
                run_of("dd-read:size=1G", 240.0, 250.0, 12.7),
                run_of("fio-randread:qd=8,size=1G", 90.0, 100.0, 16.3),
            ],
        ),
        bench(
            "beta",
            "tank",
            7200,
            vec![run_of("dd-read:size=1G", 100.0, 250.0, 12.7)],
        ),
    ]
}

/// A SQLite store at `path` holding the fleet above.
pub(crate) fn sqlite_store(path: &str) {
    sqlite_store_of(path, fleet_benches());
}

/// A SQLite store at `path` holding `benches`.
pub(crate) fn sqlite_store_of(path: &str, benches: Vec<Bench>) {
    let mut store = Store::open(&Location::Sqlite(path.into())).unwrap();
    for b in benches {
        store.save(&b).unwrap();
    }
}
