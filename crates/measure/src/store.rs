//! The results database (SQLite): a row per bench with the system file it ran on, a row per
//! run with fio's JSON and the prediction made before it, a row per disk and second of
//! `zpool iostat`, and each disk's busy fraction. Schema in docs/measure.md.

use crate::bench::{Bench, Run, Sample};
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
    MeasureError(format!("results database: {e}"))
}

/// How long opening waits for another writer's lock before refusing: far below the 2 s in
/// which a locked store must be refused, well above a commit's few milliseconds.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_millis(800);

impl Store {
    /// Opens the database, creating it (and its directory) on first use, and checks it can
    /// take a bench: a file of the schema it reads, whole, and writable now.
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| MeasureError(format!("cannot create {}: {e}", dir.display())))?;
        }
        check_file(path)?;
        let at =
            |e: rusqlite::Error| MeasureError(format!("results database {}: {e}", path.display()));
        let conn = Connection::open(path).map_err(at)?;
        conn.busy_timeout(LOCK_WAIT).map_err(at)?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(at)?;
        match version {
            0 => {
                conn.execute_batch(SCHEMA).map_err(at)?;
                conn.pragma_update(None, "user_version", SCHEMA_VERSION)
                    .map_err(at)?;
            }
            SCHEMA_VERSION => {}
            v => {
                return Err(MeasureError(format!(
                "{}: results of schema version {v}; this zpoolsim reads version {SCHEMA_VERSION}",
                path.display()
            )))
            }
        }
        check_whole(&conn, path)?;
        check_writable(&conn, path)?;
        Ok(Store(conn))
    }

    /// Checks an existing database as `open` does, before any measurement, without creating
    /// one where there is none (nothing is written before the bench can start).
    pub fn check(path: &Path) -> Result<()> {
        if path.exists() {
            Store::open(path).map(drop)
        } else {
            Ok(())
        }
    }

    /// Opens a database that must exist (for reading results).
    pub fn open_existing(path: &Path) -> Result<Store> {
        if !path.exists() {
            return Err(MeasureError(format!(
                "no results at {}: run `zpoolsim bench` first",
                path.display()
            )));
        }
        Store::open(path)
    }

    /// Stores a bench and its runs in one transaction; its id.
    pub fn save(&mut self, b: &Bench) -> Result<i64> {
        let tx = self.0.transaction().map_err(db)?;
        let bench_id = insert_bench(&tx, b)?;
        for r in &b.runs {
            save_run(&tx, bench_id, r)?;
        }
        tx.commit().map_err(db)?;
        Ok(bench_id)
    }

    /// Keeps one run the moment it finishes, in a transaction of its own (with the bench's
    /// row, on its first run): an interrupted bench keeps every workload that finished.
    pub fn keep(&mut self, b: &mut Bench, r: &Run) -> Result<()> {
        let tx = self.0.transaction().map_err(db)?;
        let bench_id = match b.id {
            Some(id) => id,
            None => insert_bench(&tx, b)?,
        };
        save_run(&tx, bench_id, r)?;
        tx.commit().map_err(db)?;
        b.id = Some(bench_id);
        Ok(())
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
                rusqlite::Error::QueryReturnedNoRows => MeasureError(format!("no bench {id} in the results")),
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

/// Refuses what is not a results file: a directory, a device, a FIFO, an empty file (SQLite
/// would silently make a database of a 0-byte file given by mistake).
fn check_file(path: &Path) -> Result<()> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() {
        return Err(MeasureError(format!(
            "{} is not a regular file: give a results database (a file bench made)",
            path.display()
        )));
    }
    if meta.len() == 0 {
        return Err(MeasureError(format!(
            "{} is an empty file, not a results database: remove it, or give another --db",
            path.display()
        )));
    }
    Ok(())
}

/// SQLite's own check of the file's pages and indexes (`PRAGMA quick_check`).
fn check_whole(conn: &Connection, path: &Path) -> Result<()> {
    let verdict: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| MeasureError(format!("results database {}: {e}", path.display())))?;
    if verdict != "ok" {
        return Err(MeasureError(format!(
            "results database {} is damaged ({verdict}): restore it from a copy, or give another --db",
            path.display()
        )));
    }
    Ok(())
}

/// Takes the write lock and writes the header once, then rolls back: a database another
/// process holds, or one this user may not write, is refused now rather than after fio.
fn check_writable(conn: &Connection, path: &Path) -> Result<()> {
    let probe = format!("BEGIN IMMEDIATE; PRAGMA user_version = {SCHEMA_VERSION}; ROLLBACK;");
    if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(true) {
        return Err(MeasureError(format!(
            "results database {} cannot be written (read-only)",
            path.display()
        )));
    }
    conn.execute_batch(&probe).map_err(|e| {
        let _ = conn.execute_batch("ROLLBACK");
        MeasureError(format!(
            "results database {} cannot be written now: {e}",
            path.display()
        ))
    })
}

fn insert_bench(tx: &rusqlite::Transaction, b: &Bench) -> Result<i64> {
    tx.execute(
        "INSERT INTO bench (started, zpoolsim_version, pool, dataset, directory, system_toml) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![b.started, b.zpoolsim_version, b.pool, b.dataset, b.directory, b.system_toml],
    )
    .map_err(db)?;
    Ok(tx.last_insert_rowid())
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
