//! The results database (SQLite): a row per bench with the system file it ran on, a row per
//! run with fio's JSON and the prediction made before it, a row per disk and second of
//! `zpool iostat`, and each disk's busy fraction. Schema in docs/measure.md.

use crate::record::{Bench, Run, Sample};
use crate::{MeasureError, Result};
use rusqlite::{params, Connection};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The schema's version (`PRAGMA user_version`): a database of another version is refused.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE bench (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    zpoolsim_version TEXT NOT NULL,
    pool TEXT NOT NULL,
    dataset TEXT NOT NULL,
    directory TEXT NOT NULL,
    system_toml TEXT NOT NULL
);
CREATE TABLE run (
    id INTEGER PRIMARY KEY,
    bench_id INTEGER NOT NULL REFERENCES bench(id),
    workload TEXT NOT NULL,
    runtime_s REAL NOT NULL,
    data_bytes INTEGER NOT NULL,
    job_file TEXT NOT NULL,
    fio_json TEXT NOT NULL,
    prediction_json TEXT NOT NULL,
    read_bytes_per_s REAL NOT NULL,
    write_bytes_per_s REAL NOT NULL,
    iops REAL NOT NULL,
    mean_latency_s REAL NOT NULL
);
CREATE TABLE disk_sample (
    run_id INTEGER NOT NULL REFERENCES run(id),
    second INTEGER NOT NULL,
    device TEXT NOT NULL,
    vdev TEXT,
    read_ops_per_s REAL NOT NULL,
    write_ops_per_s REAL NOT NULL,
    read_bytes_per_s REAL NOT NULL,
    write_bytes_per_s REAL NOT NULL
);
CREATE TABLE disk_busy (
    run_id INTEGER NOT NULL REFERENCES run(id),
    device TEXT NOT NULL,
    utilization REAL NOT NULL
);
";

/// `$XDG_DATA_HOME/zpoolsim/results.sqlite`, or under ~/.local/share when it is unset.
pub fn default_path() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME").unwrap_or_else(|| "/".into());
            Path::new(&home).join(".local/share")
        });
    base.join("zpoolsim").join("results.sqlite")
}

/// A bench in the list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchSummary {
    pub id: i64,
    pub started: String,
    pub pool: String,
    pub dataset: String,
    pub workloads: Vec<String>,
}

#[derive(Debug)]
pub struct Store(Connection);

fn db(e: rusqlite::Error) -> MeasureError {
    MeasureError::Store(format!("results database: {e}"))
}

impl Store {
    /// Opens the database, creating it (and its directory) on first use.
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                MeasureError::Store(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        let conn = Connection::open(path)
            .map_err(|e| MeasureError::Store(format!("{}: {e}", path.display())))?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(db)?;
        match version {
            0 => {
                conn.execute_batch(SCHEMA).map_err(db)?;
                conn.pragma_update(None, "user_version", SCHEMA_VERSION)
                    .map_err(db)?;
            }
            SCHEMA_VERSION => {}
            v => {
                return Err(MeasureError::Store(format!(
                "{}: results of schema version {v}; this zpoolsim reads version {SCHEMA_VERSION}",
                path.display()
            )))
            }
        }
        Ok(Store(conn))
    }

    /// Opens a database that must exist (for reading results).
    pub fn open_existing(path: &Path) -> Result<Store> {
        if !path.exists() {
            return Err(MeasureError::Store(format!(
                "no results at {}: run `zpoolsim bench` first",
                path.display()
            )));
        }
        Store::open(path)
    }

    /// Stores a bench and its runs in one transaction; its id.
    pub fn save(&mut self, b: &Bench) -> Result<i64> {
        let tx = self.0.transaction().map_err(db)?;
        tx.execute(
            "INSERT INTO bench (started, zpoolsim_version, pool, dataset, directory, system_toml) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![b.started, b.zpoolsim_version, b.pool, b.dataset, b.directory, b.system_toml],
        )
        .map_err(db)?;
        let bench_id = tx.last_insert_rowid();
        for r in &b.runs {
            save_run(&tx, bench_id, r)?;
        }
        tx.commit().map_err(db)?;
        Ok(bench_id)
    }

    pub fn list(&self) -> Result<Vec<BenchSummary>> {
        let benches = self.all(
            "SELECT id, started, pool, dataset FROM bench ORDER BY id",
            [],
            |r| {
                Ok(BenchSummary {
                    id: r.get(0)?,
                    started: r.get(1)?,
                    pool: r.get(2)?,
                    dataset: r.get(3)?,
                    workloads: Vec::new(),
                })
            },
        )?;
        benches
            .into_iter()
            .map(|mut s| {
                s.workloads = self.all(
                    "SELECT workload FROM run WHERE bench_id = ?1 ORDER BY id",
                    [s.id],
                    |r| r.get(0),
                )?;
                Ok(s)
            })
            .collect()
    }

    /// Every row of a query, each made by `row`.
    fn all<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        row: impl FnMut(&rusqlite::Row) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>> {
        let mut stmt = self.0.prepare(sql).map_err(db)?;
        let rows = stmt.query_map(params, row).map_err(db)?;
        rows.collect::<rusqlite::Result<_>>().map_err(db)
    }

    /// The newest bench's id, if any.
    pub fn latest(&self) -> Result<Option<i64>> {
        self.0
            .query_row("SELECT max(id) FROM bench", [], |r| r.get(0))
            .map_err(db)
    }

    pub fn load(&self, id: i64) -> Result<Bench> {
        let mut b = self
            .0
            .query_row(
                "SELECT started, zpoolsim_version, pool, dataset, directory, system_toml FROM bench WHERE id = ?1",
                [id],
                |r| {
                    Ok(Bench {
                        id: Some(id),
                        started: r.get(0)?,
                        zpoolsim_version: r.get(1)?,
                        pool: r.get(2)?,
                        dataset: r.get(3)?,
                        directory: r.get(4)?,
                        system_toml: r.get(5)?,
                        runs: Vec::new(),
                    })
                },
            )
            .map_err(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => MeasureError::Store(format!("no bench {id} in the results")),
                e => db(e),
            })?;
        let ids = self.all(
            "SELECT id FROM run WHERE bench_id = ?1 ORDER BY id",
            [id],
            |r| r.get(0),
        )?;
        for run_id in ids {
            b.runs.push(self.load_run(run_id)?);
        }
        Ok(b)
    }

    fn load_run(&self, run_id: i64) -> Result<Run> {
        let mut run = self
            .0
            .query_row(
                "SELECT workload, runtime_s, data_bytes, job_file, fio_json, prediction_json, read_bytes_per_s, write_bytes_per_s, iops, mean_latency_s FROM run WHERE id = ?1",
                [run_id],
                |r| {
                    Ok(Run {
                        workload: r.get(0)?,
                        runtime_s: r.get(1)?,
                        data_bytes: r.get::<_, i64>(2)? as u64,
                        job_file: r.get(3)?,
                        fio_json: r.get(4)?,
                        prediction: serde_json::from_str(&r.get::<_, String>(5)?)
                            .unwrap_or(serde_json::Value::Null),
                        measured: crate::fio_json::Measured {
                            read_bytes_per_s: r.get(6)?,
                            write_bytes_per_s: r.get(7)?,
                            iops: r.get(8)?,
                            mean_latency_s: r.get(9)?,
                        },
                        samples: Vec::new(),
                        busy: BTreeMap::new(),
                    })
                },
            )
            .map_err(db)?;
        run.samples = self.all(
            "SELECT second, device, vdev, read_ops_per_s, write_ops_per_s, read_bytes_per_s, write_bytes_per_s FROM disk_sample WHERE run_id = ?1 ORDER BY second, rowid",
            [run_id],
            |r| {
                Ok(Sample {
                    second: r.get(0)?,
                    device: r.get(1)?,
                    vdev: r.get(2)?,
                    read_ops_per_s: r.get(3)?,
                    write_ops_per_s: r.get(4)?,
                    read_bytes_per_s: r.get(5)?,
                    write_bytes_per_s: r.get(6)?,
                })
            },
        )?;
        run.busy = self
            .all(
                "SELECT device, utilization FROM disk_busy WHERE run_id = ?1",
                [run_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?
            .into_iter()
            .collect();
        Ok(run)
    }
}

fn save_run(tx: &rusqlite::Transaction, bench_id: i64, r: &Run) -> Result<()> {
    let m = &r.measured;
    tx.execute(
        "INSERT INTO run (bench_id, workload, runtime_s, data_bytes, job_file, fio_json, prediction_json, read_bytes_per_s, write_bytes_per_s, iops, mean_latency_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![bench_id, r.workload, r.runtime_s, r.data_bytes as i64, r.job_file, r.fio_json, r.prediction.to_string(), m.read_bytes_per_s, m.write_bytes_per_s, m.iops, m.mean_latency_s],
    )
    .map_err(db)?;
    let run_id = tx.last_insert_rowid();
    for s in &r.samples {
        tx.execute(
            "INSERT INTO disk_sample (run_id, second, device, vdev, read_ops_per_s, write_ops_per_s, read_bytes_per_s, write_bytes_per_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![run_id, s.second, s.device, s.vdev, s.read_ops_per_s, s.write_ops_per_s, s.read_bytes_per_s, s.write_bytes_per_s],
        )
        .map_err(db)?;
    }
    for (device, u) in &r.busy {
        tx.execute(
            "INSERT INTO disk_busy (run_id, device, utilization) VALUES (?1, ?2, ?3)",
            params![run_id, device, u],
        )
        .map_err(db)?;
    }
    Ok(())
}

/// Seconds since 1970 as UTC in RFC 3339 (`2026-03-01T12:00:00Z`), by the civil-from-days
/// algorithm (Howard Hinnant's `civil_from_days`).
pub fn utc(unix: i64) -> String {
    let (days, secs) = (unix.div_euclid(86_400), unix.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}
