//! Speed of `zpoolsim fleet` over a large store (target < 1 s a page): 1,000 hosts, each with
//! 100 benches of its pool over 100 days, each bench a run of two workloads, in a SQLite store
//! made by `Store::open` (so with the schema's indexes) and filled in one transaction. Pages
//! of 100 pools: the first, the last, and one host's.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::PathBuf;
use zpoolsim_store::{FleetQuery, Location, Store};

const HOSTS: usize = 1000;
const BENCHES_PER_HOST: usize = 100;

/// A new store of the generated fleet; its path.
fn generate() -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "zpoolsim-fleet-bench-{}.sqlite",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    drop(Store::open(&Location::Sqlite(path.clone())).expect("a new store"));
    let mut conn = rusqlite::Connection::open(&path).unwrap();
    let tx = conn.transaction().unwrap();
    {
        let mut bench = tx
            .prepare("INSERT INTO bench (uid, host, machine_id, started, zpoolsim_version, pool, dataset, directory, system_toml) VALUES (?1, ?2, ?3, ?4, '0.1.0', 'tank', 'tank', '/tank/b', '') RETURNING id")
            .unwrap();
        let mut run = tx
            .prepare("INSERT INTO run (bench_id, workload, runtime_s, data_bytes, job_file, fio_json, prediction_json, read_bytes_per_s, write_bytes_per_s, iops, mean_latency_s, predicted_bytes_per_s, expected_error_pct, bottleneck) VALUES (?1, ?2, 30, 1073741824, '', '{}', '{}', ?3, 0, 100, 0.01, 250e6, 12.7, 'the disks')")
            .unwrap();
        for h in 0..HOSTS {
            for b in 0..BENCHES_PER_HOST {
                let started = format!("2026-{:02}-{:02}T12:00:00Z", 1 + b / 28, 1 + b % 28);
                let uid = format!("{h:016x}{b:016x}");
                let id: i64 = bench
                    .query_row(
                        (uid, format!("host{h:04}"), format!("id{h}"), started),
                        |r| r.get(0),
                    )
                    .unwrap();
                for w in ["dd-write:size=1G", "fio-randread:qd=8,size=1G"] {
                    run.execute((id, w, 100e6 + (h * b) as f64)).unwrap();
                }
            }
        }
    }
    tx.commit().unwrap();
    path
}

fn fleet(c: &mut Criterion) {
    let path = generate();
    let mut store = Store::open_existing(&Location::Sqlite(path.clone())).unwrap();
    let page = |offset, host: Option<&str>| FleetQuery {
        host: host.map(str::to_string),
        limit: 100,
        offset,
        ..FleetQuery::default()
    };
    let first = store.fleet(&page(0, None), None).unwrap();
    assert_eq!((first.pools.len(), first.more), (100, true));
    assert_eq!(
        first.pools[0].started, "2026-04-16T12:00:00Z",
        "the newest bench"
    );
    c.bench_function("fleet: first page of 1,000 hosts x 100 benches", |b| {
        b.iter(|| store.fleet(black_box(&page(0, None)), None).unwrap())
    });
    c.bench_function("fleet: last page", |b| {
        b.iter(|| store.fleet(black_box(&page(900, None)), None).unwrap())
    });
    c.bench_function("fleet: one host", |b| {
        b.iter(|| {
            store
                .fleet(black_box(&page(0, Some("host0500"))), None)
                .unwrap()
        })
    });
    drop(store);
    let _ = std::fs::remove_file(&path);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = fleet
}
criterion_main!(benches);
