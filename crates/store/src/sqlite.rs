//! The embedded backend: a SQLite file (rusqlite, bundled), one per machine by default.
//! Before it is used the file is checked: a regular file that is not empty, whole (`PRAGMA
//! quick_check`), of a schema this zpoolsim reads, and writable now (not locked by another
//! process for longer than `LOCK_WAIT`).

use super::sql::{Backend, Dialect, Value};
use crate::{Result, StoreError};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ToSql};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long opening waits for another writer's lock before refusing: far below the 2 s in
/// which a locked store must be refused, well above a commit's few milliseconds.
const LOCK_WAIT: Duration = Duration::from_millis(800);

pub(crate) struct Sqlite {
    conn: Connection,
    path: PathBuf,
}

impl Sqlite {
    /// Opens the file (creating it and its directory on first use) and checks it is whole.
    pub(crate) fn open(path: &Path) -> Result<Sqlite> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError(format!("cannot create {}: {e}", dir.display())))?;
        }
        check_file(path)?;
        let at =
            |e: rusqlite::Error| StoreError(format!("results database {}: {e}", path.display()));
        let conn = Connection::open(path).map_err(at)?;
        conn.busy_timeout(LOCK_WAIT).map_err(at)?;
        let mut db = Sqlite {
            conn,
            path: path.to_path_buf(),
        };
        db.check_whole()?;
        Ok(db)
    }

    fn fail(&self, e: rusqlite::Error) -> StoreError {
        StoreError(format!("results database {}: {e}", self.path.display()))
    }

    /// SQLite's own check of the file's pages and indexes.
    fn check_whole(&mut self) -> Result<()> {
        let verdict: String = self
            .conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(|e| self.fail(e))?;
        if verdict != "ok" {
            return Err(StoreError(format!(
                "results database {} is damaged ({verdict}): restore it from a copy, or give another --db",
                self.path.display()
            )));
        }
        Ok(())
    }
}

/// Refuses what is not a results file: a directory, a device, a FIFO, an empty file (SQLite
/// would silently make a database of a 0-byte file given by mistake).
fn check_file(path: &Path) -> Result<()> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() {
        return Err(StoreError(format!(
            "{} is not a regular file: give a results database (a file bench made)",
            path.display()
        )));
    }
    if meta.len() == 0 {
        return Err(StoreError(format!(
            "{} is an empty file, not a results database: remove it, or give another --db",
            path.display()
        )));
    }
    Ok(())
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(v) => ToSqlOutput::Borrowed(ValueRef::Integer(*v)),
            Value::Real(v) => ToSqlOutput::Borrowed(ValueRef::Real(*v)),
            Value::Text(v) => ToSqlOutput::Borrowed(ValueRef::Text(v.as_bytes())),
        })
    }
}

fn value(v: ValueRef) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) | ValueRef::Blob(t) => Value::Text(String::from_utf8_lossy(t).into()),
    }
}

impl Backend for Sqlite {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        self.conn.execute_batch(sql).map_err(|e| self.fail(e))
    }

    fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64> {
        self.conn
            .execute(sql, rusqlite::params_from_iter(params))
            .map(|n| n as u64)
            .map_err(|e| self.fail(e))
    }

    fn rows(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>> {
        let read = |conn: &Connection| -> rusqlite::Result<Vec<Vec<Value>>> {
            let mut stmt = conn.prepare(sql)?;
            let columns = stmt.column_count();
            let rows = stmt.query_map(rusqlite::params_from_iter(params), |r| {
                (0..columns).map(|i| r.get_ref(i).map(value)).collect()
            })?;
            rows.collect()
        };
        read(&self.conn).map_err(|e| self.fail(e))
    }

    /// The `zpoolsim_schema` table's version; before it existed (version 1) SQLite's
    /// `user_version`.
    fn schema_version(&mut self) -> Result<i64> {
        let has_table = "SELECT count(*) FROM sqlite_master WHERE name = 'zpoolsim_schema'";
        if super::sql::scalar(self, has_table, &[])?.int()? > 0 {
            return super::schema::recorded(self);
        }
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.fail(e))?;
        let tables = super::sql::scalar(self, "SELECT count(*) FROM sqlite_master", &[])?.int()?;
        if version == 0 && tables > 0 {
            return Err(StoreError(format!(
                "{} is a SQLite database zpoolsim did not make: give another --db",
                self.path.display()
            )));
        }
        Ok(version)
    }

    /// Takes the write lock and writes the header once, then rolls back.
    fn check_writable(&mut self) -> Result<()> {
        if self.conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(true) {
            return Err(StoreError(format!(
                "results database {} cannot be written (read-only)",
                self.path.display()
            )));
        }
        let probe = "BEGIN IMMEDIATE; PRAGMA user_version = 2; ROLLBACK;";
        self.conn.execute_batch(probe).map_err(|e| {
            let _ = self.conn.execute_batch("ROLLBACK");
            StoreError(format!(
                "results database {} cannot be written now: {e}",
                self.path.display()
            ))
        })
    }

    fn place(&self) -> String {
        self.path.display().to_string()
    }
}
