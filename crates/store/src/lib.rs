//! The results store: a row per bench (the machine it ran on, the system file discover
//! wrote, the zpoolsim that ran it), a row per run with fio's JSON and the prediction made
//! before it, a row per disk and second of `zpool iostat`, and each disk's busy fraction.
//! Two backends behind one interface (`sql::Backend`): a SQLite file per machine, the
//! default, and a PostgreSQL database a team shares; the same schema and migrations
//! (`schema`) for both. `record` is what a bench keeps, `host` on which machine; `fleet`
//! the newest bench of every host's pools, `push` a copy into another store. Documented in
//! docs/measure.md.
//!
//! The door: the [`Store`], where it is ([`Location`]), what it keeps ([`Bench`], [`Run`],
//! [`Sample`], [`Host`]), what it answers, and one error, [`StoreError`].

mod connection;
mod fleet;
mod host;
mod pool;
mod postgres;
mod push;
mod record;
mod schema;
mod sql;
mod sqlite;

pub use connection::Server;
pub use fleet::{FleetPage, FleetQuery, FleetRow, FleetWorkload};
pub use host::{this as this_host, Host};
pub use parse::fio_json::Measured;
pub use parse::utc;
pub use pool::StorePool;
pub use postgres::{ANSWER_WAIT, CONNECT_WAIT, LOCK_WAIT, STATEMENT_WAIT};
pub use push::Pushed;
pub use record::{Bench, Run, Sample};

use serde::Serialize;
use serde_json::Value as Json;
use sql::{transaction, Backend, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why the results database cannot be opened, read or written: one sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

/// Every store operation fails with one sentence ([`StoreError`]).
pub type Result<T> = std::result::Result<T, StoreError>;

/// `$XDG_DATA_HOME/zpoolsim/results.sqlite`, or under ~/.local/share when it is unset. With
/// neither set, or HOME empty, there is no home to keep results in: rather than a store under
/// `/` or the current directory, one line says where to give one.
pub fn default_path() -> Result<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let base = match (set("XDG_DATA_HOME"), set("HOME")) {
        (Some(data), _) => PathBuf::from(data),
        (None, Some(home)) => Path::new(&home).join(".local/share"),
        (None, None) => {
            return Err(StoreError(
                "HOME is unset or empty, so there is no default results store: give --db FILE|URL or set ZPOOLSIM_DB".into(),
            ))
        }
    };
    Ok(base.join("zpoolsim").join("results.sqlite"))
}

/// Where the results are: a SQLite file, or a PostgreSQL database (its URL parsed once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// Boxed: the driver's config is ten times a path.
    Postgres(Box<Server>),
}

impl Location {
    /// `--db`'s value, else `ZPOOLSIM_DB`, else the default file: a `postgres://` or
    /// `postgresql://` URL is a server, anything else a file.
    pub fn from_flag(flag: Option<&str>) -> Result<Location> {
        let env = std::env::var("ZPOOLSIM_DB")
            .ok()
            .filter(|v| !v.trim().is_empty());
        match flag.map(str::to_string).or(env) {
            Some(v) if is_url(&v) => Server::parse(&v).map(|s| Location::Postgres(Box::new(s))),
            Some(v) => Ok(Location::Sqlite(PathBuf::from(v))),
            None => default_path().map(Location::Sqlite),
        }
    }

    /// Whether there is nothing there yet (a file that does not exist; a server always is).
    pub fn is_absent(&self) -> bool {
        matches!(self, Location::Sqlite(p) if !p.exists())
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(p) => {
                f.write_str(&model::input::escape_controls(&p.display().to_string()))
            }
            Location::Postgres(server) => write!(f, "{server}"),
        }
    }
}

fn is_url(v: &str) -> bool {
    v.starts_with("postgres://") || v.starts_with("postgresql://")
}

/// A new id for a bench, unique across machines: 128 random bits, hex.
pub fn new_uid() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if random.is_err() {
        // No /dev/urandom: the time and the process, unique enough on one machine.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = (now ^ (u128::from(std::process::id()) << 96)).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The figures of a prediction the fleet reads, kept beside its JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Predicted {
    /// Predicted throughput, bytes per second.
    pub bytes_per_s: f64,
    /// The prediction's expected error, percent.
    pub expected_error_pct: f64,
    /// What the model names as the limit, one sentence.
    pub bottleneck: String,
}

impl Predicted {
    /// The figures of a stored prediction's JSON; 0 and an empty sentence where one is missing.
    pub fn of(prediction: &Json) -> Predicted {
        let number = |k: &str| prediction.get(k).and_then(Json::as_f64).unwrap_or(0.0);
        Predicted {
            bytes_per_s: number("throughput_bytes_per_s"),
            expected_error_pct: number("expected_error_pct"),
            bottleneck: prediction["bottleneck"]["sentence"]
                .as_str()
                .unwrap_or("")
                .to_string(),
        }
    }
}

/// A bench in the list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchSummary {
    /// The bench's id in this store.
    pub id: i64,
    /// When it started: UTC, RFC 3339.
    pub started: String,
    /// The host's name.
    pub host: String,
    /// The pool benched.
    pub pool: String,
    /// The dataset benched.
    pub dataset: String,
    /// Its runs' workloads, in the order run.
    pub workloads: Vec<String>,
}

/// An open results store, SQLite or PostgreSQL behind one interface.
pub struct Store {
    db: Box<dyn Backend>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({})", self.db.place())
    }
}

impl Store {
    /// Opens the store (a new SQLite file and its directory are made), brings its schema up
    /// to date and checks it can take a bench now: every refusal is one sentence, before any
    /// measurement.
    pub fn open(at: &Location) -> Result<Store> {
        let mut store = Store::connect(at)?;
        store.db.check_writable()?;
        Ok(store)
    }

    /// The store, its schema brought up to date where it is behind.
    fn connect(at: &Location) -> Result<Store> {
        let mut db: Box<dyn Backend> = match at {
            Location::Sqlite(path) => Box::new(sqlite::Sqlite::open(path)?),
            Location::Postgres(server) => Box::new(postgres::Postgres::connect(server)?),
        };
        schema::migrate(db.as_mut())?;
        Ok(Store { db })
    }

    /// Checks a store as `open` does, without making a SQLite file where there is none
    /// (nothing is written before a bench can start).
    pub fn check(at: &Location) -> Result<()> {
        if at.is_absent() {
            return Ok(());
        }
        Store::open(at).map(drop)
    }

    /// Opens a store that must exist, to read it (a role that may only read will do).
    pub fn open_existing(at: &Location) -> Result<Store> {
        if at.is_absent() {
            return Err(StoreError(format!(
                "no results at {at}: run `zpoolsim bench` first"
            )));
        }
        Store::connect(at)
    }

    /// Stores a bench and its runs in one transaction; its id.
    pub fn save(&mut self, b: &Bench) -> Result<i64> {
        transaction(self.db.as_mut(), |db| {
            let id = insert_bench(db, b)?;
            for r in &b.runs {
                insert_run(db, id, r)?;
            }
            Ok(id)
        })
    }

    /// Keeps one run the moment it finishes, in a transaction of its own (with the bench's
    /// row, on its first run): an interrupted bench keeps every workload that finished.
    pub fn keep(&mut self, b: &mut Bench, r: &Run) -> Result<()> {
        let id = transaction(self.db.as_mut(), |db| {
            let id = match b.id {
                Some(id) => id,
                None => insert_bench(db, b)?,
            };
            insert_run(db, id, r).map(|()| id)
        })?;
        b.id = Some(id);
        Ok(())
    }

    /// Every bench in the store, by id (the order they were stored in).
    pub fn list(&mut self) -> Result<Vec<BenchSummary>> {
        let benches = self.db.rows(
            "SELECT id, started, host, pool, dataset FROM bench ORDER BY id",
            &[],
        )?;
        let mut workloads: BTreeMap<i64, Vec<String>> = BTreeMap::new();
        for r in self
            .db
            .rows("SELECT bench_id, workload FROM run ORDER BY id", &[])?
        {
            workloads.entry(r[0].int()?).or_default().push(r[1].text()?);
        }
        benches
            .iter()
            .map(|r| {
                let id = r[0].int()?;
                Ok(BenchSummary {
                    id,
                    started: r[1].text()?,
                    host: r[2].text()?,
                    pool: r[3].text()?,
                    dataset: r[4].text()?,
                    workloads: workloads.remove(&id).unwrap_or_default(),
                })
            })
            .collect()
    }

    /// The newest bench's id, if any.
    pub fn latest(&mut self) -> Result<Option<i64>> {
        match sql::scalar(self.db.as_mut(), "SELECT max(id) FROM bench", &[])? {
            Value::Null => Ok(None),
            v => v.int().map(Some),
        }
    }

    /// The bench of this id with its runs and samples; an error sentence when there is none.
    pub fn load(&mut self, id: i64) -> Result<Bench> {
        let rows = self.db.rows(
            "SELECT uid, host, machine_id, started, zpoolsim_version, pool, dataset, directory, system_toml FROM bench WHERE id = $1",
            &[id.into()],
        )?;
        let r = rows
            .first()
            .ok_or_else(|| StoreError(format!("no bench {id} in the results")))?;
        let mut b = Bench {
            id: Some(id),
            uid: r[0].text()?,
            host: Host {
                name: r[1].text()?,
                machine_id: r[2].text()?,
            },
            started: r[3].text()?,
            zpoolsim_version: r[4].text()?,
            pool: r[5].text()?,
            dataset: r[6].text()?,
            directory: r[7].text()?,
            system_toml: r[8].text()?,
            runs: Vec::new(),
        };
        let ids = self.db.rows(
            "SELECT id FROM run WHERE bench_id = $1 ORDER BY id",
            &[id.into()],
        )?;
        for run in ids {
            b.runs.push(self.load_run(run[0].int()?)?);
        }
        Ok(b)
    }

    fn load_run(&mut self, run_id: i64) -> Result<Run> {
        let rows = self.db.rows(
            "SELECT workload, runtime_s, data_bytes, job_file, fio_json, prediction_json, read_bytes_per_s, write_bytes_per_s, iops, mean_latency_s FROM run WHERE id = $1",
            &[run_id.into()],
        )?;
        let r = rows
            .first()
            .ok_or_else(|| StoreError(format!("no run {run_id} in the results")))?;
        let prediction = r[5].text()?;
        Ok(Run {
            workload: r[0].text()?,
            runtime_s: r[1].real()?,
            data_bytes: r[2].int()? as u64,
            job_file: r[3].text()?,
            fio_json: r[4].text()?,
            prediction: serde_json::from_str(&prediction).map_err(|e| {
                StoreError(format!("run {run_id}: its prediction is not JSON: {e}"))
            })?,
            measured: Measured {
                read_bytes_per_s: r[6].real()?,
                write_bytes_per_s: r[7].real()?,
                iops: r[8].real()?,
                mean_latency_s: r[9].real()?,
            },
            samples: self.samples(run_id)?,
            busy: self.busy(run_id)?,
        })
    }

    fn samples(&mut self, run_id: i64) -> Result<Vec<Sample>> {
        let rows = self.db.rows(
            "SELECT second, device, vdev, read_ops_per_s, write_ops_per_s, read_bytes_per_s, write_bytes_per_s FROM disk_sample WHERE run_id = $1 ORDER BY second",
            &[run_id.into()],
        )?;
        rows.iter()
            .map(|r| {
                Ok(Sample {
                    second: r[0].int()? as u32,
                    device: r[1].text()?,
                    vdev: r[2].opt_text()?,
                    read_ops_per_s: r[3].real()?,
                    write_ops_per_s: r[4].real()?,
                    read_bytes_per_s: r[5].real()?,
                    write_bytes_per_s: r[6].real()?,
                })
            })
            .collect()
    }

    fn busy(&mut self, run_id: i64) -> Result<BTreeMap<String, f64>> {
        let rows = self.db.rows(
            "SELECT device, utilization FROM disk_busy WHERE run_id = $1",
            &[run_id.into()],
        )?;
        rows.iter()
            .map(|r| Ok((r[0].text()?, r[1].real()?)))
            .collect()
    }

    /// Whether the connection still works (a pool asks before it lends one out).
    pub fn ping(&mut self) -> Result<()> {
        sql::scalar(self.db.as_mut(), "SELECT 1", &[]).map(drop)
    }

    /// Whether the connection is gone for good (the server closed it).
    pub fn is_closed(&self) -> bool {
        self.db.is_closed()
    }

    /// Whether a bench of this uid is stored.
    pub fn has(&mut self, uid: &str) -> Result<bool> {
        let n = sql::scalar(
            self.db.as_mut(),
            "SELECT count(*) FROM bench WHERE uid = $1",
            &[uid.into()],
        )?;
        Ok(n.int()? > 0)
    }
}

fn insert_bench(db: &mut dyn Backend, b: &Bench) -> Result<i64> {
    let id = sql::scalar(
        db,
        "INSERT INTO bench (uid, host, machine_id, started, zpoolsim_version, pool, dataset, directory, system_toml) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        &[
            (&b.uid).into(),
            (&b.host.name).into(),
            (&b.host.machine_id).into(),
            (&b.started).into(),
            (&b.zpoolsim_version).into(),
            (&b.pool).into(),
            (&b.dataset).into(),
            (&b.directory).into(),
            (&b.system_toml).into(),
        ],
    )?;
    id.int()
}

fn insert_run(db: &mut dyn Backend, bench_id: i64, r: &Run) -> Result<()> {
    let m = &r.measured;
    let p = Predicted::of(&r.prediction);
    let run_id = sql::scalar(
        db,
        "INSERT INTO run (bench_id, workload, runtime_s, data_bytes, job_file, fio_json, prediction_json, read_bytes_per_s, write_bytes_per_s, iops, mean_latency_s, predicted_bytes_per_s, expected_error_pct, bottleneck) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id",
        &[
            bench_id.into(),
            (&r.workload).into(),
            r.runtime_s.into(),
            (r.data_bytes as i64).into(),
            (&r.job_file).into(),
            (&r.fio_json).into(),
            r.prediction.to_string().as_str().into(),
            m.read_bytes_per_s.into(),
            m.write_bytes_per_s.into(),
            m.iops.into(),
            m.mean_latency_s.into(),
            p.bytes_per_s.into(),
            p.expected_error_pct.into(),
            p.bottleneck.as_str().into(),
        ],
    )?
    .int()?;
    for s in &r.samples {
        db.exec(
            "INSERT INTO disk_sample (run_id, second, device, vdev, read_ops_per_s, write_ops_per_s, read_bytes_per_s, write_bytes_per_s) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[
                run_id.into(),
                i64::from(s.second).into(),
                (&s.device).into(),
                s.vdev.as_ref().into(),
                s.read_ops_per_s.into(),
                s.write_ops_per_s.into(),
                s.read_bytes_per_s.into(),
                s.write_bytes_per_s.into(),
            ],
        )?;
    }
    for (device, u) in &r.busy {
        db.exec(
            "INSERT INTO disk_busy (run_id, device, utilization) VALUES ($1, $2, $3)",
            &[run_id.into(), device.into(), (*u).into()],
        )?;
    }
    Ok(())
}
