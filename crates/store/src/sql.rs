//! The one interface both backends answer: statements with `$1`-numbered parameters (SQLite
//! reads them as its `?NNN` in order of appearance, PostgreSQL natively), values of four kinds,
//! and explicit transactions. Everything the store does is written once, over this.

use crate::{Result, StoreError};

/// A column's value: the four kinds the schema uses.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl Value {
    pub(crate) fn int(&self) -> Result<i64> {
        match self {
            Value::Int(v) => Ok(*v),
            other => Err(kind("an integer", other)),
        }
    }

    pub(crate) fn real(&self) -> Result<f64> {
        match self {
            Value::Real(v) => Ok(*v),
            Value::Int(v) => Ok(*v as f64),
            other => Err(kind("a number", other)),
        }
    }

    pub(crate) fn text(&self) -> Result<String> {
        match self {
            Value::Text(v) => Ok(v.clone()),
            other => Err(kind("text", other)),
        }
    }

    pub(crate) fn opt_text(&self) -> Result<Option<String>> {
        match self {
            Value::Null => Ok(None),
            other => other.text().map(Some),
        }
    }
}

fn kind(want: &str, got: &Value) -> StoreError {
    StoreError(format!("results database: expected {want}, found {got:?}"))
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<Option<&String>> for Value {
    fn from(v: Option<&String>) -> Value {
        v.map_or(Value::Null, Value::from)
    }
}

/// Which SQL the schema's few differences take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

/// A connection to one results database.
pub(crate) trait Backend: Send {
    fn dialect(&self) -> Dialect;
    /// Statements without parameters, separated by semicolons.
    fn batch(&mut self, sql: &str) -> Result<()>;
    /// One statement; the rows it changed.
    fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64>;
    /// One query's rows, each a value per column.
    fn rows(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>>;
    /// The database's version of the schema, 0 where it holds none; an error where it holds
    /// something that is not a zpoolsim results database.
    fn schema_version(&mut self) -> Result<i64>;
    /// Refuses a database this connection cannot write now (read-only, locked, no rights).
    fn check_writable(&mut self) -> Result<()>;
    /// Where it is, for messages (a path, or the URL without its password).
    fn place(&self) -> String;
    /// Takes (`held`) or gives back the lock schema changes hold, around their transaction (a
    /// database several machines create at once); nothing where one file has one writer at a
    /// time anyway.
    fn schema_lock(&mut self, _held: bool) -> Result<()> {
        Ok(())
    }
    /// Whether the connection is gone (the server restarted): a pool replaces it.
    fn is_closed(&self) -> bool {
        false
    }
}

/// Runs `work` in a transaction: committed when it succeeds, rolled back when it fails, so
/// nothing is ever half written.
pub(crate) fn transaction<T>(
    db: &mut dyn Backend,
    work: impl FnOnce(&mut dyn Backend) -> Result<T>,
) -> Result<T> {
    db.batch("BEGIN")?;
    match work(db) {
        Ok(v) => {
            db.batch("COMMIT")?;
            Ok(v)
        }
        Err(e) => {
            let _ = db.batch("ROLLBACK");
            Err(e)
        }
    }
}

/// The first column of the first row.
pub(crate) fn scalar(db: &mut dyn Backend, sql: &str, params: &[Value]) -> Result<Value> {
    db.rows(sql, params)?
        .into_iter()
        .next()
        .and_then(|r| r.into_iter().next())
        .ok_or_else(|| StoreError(format!("results database: no row from {sql}")))
}
