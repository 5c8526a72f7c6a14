//! The shared backend: a PostgreSQL database a team's machines all write to (tokio-postgres
//! driven from a runtime of the connection's own, without TLS: a server on the team's own
//! network or a tunnel). Every wait is bounded: connecting (TCP, startup and authentication)
//! takes at most `CONNECT_WAIT`, a statement at most `STATEMENT_WAIT` on the server and
//! `ANSWER_WAIT` at the client, a lock another session holds is waited on `LOCK_WAIT`. Before
//! a bench the role must be able to write and read: a read-only session, or a role without
//! INSERT or SELECT on the tables, is refused before fio starts.

use super::connection::Server;
use super::sql::{Backend, Dialect, Value};
use crate::{Result, StoreError};
use std::future::Future;
use std::time::Duration;
use tokio_postgres::types::{IsNull, ToSql, Type};
use tokio_postgres::{Client, NoTls};

/// How long connecting may take, TCP and PostgreSQL's startup and authentication together,
/// before the server is called unreachable (a server that accepts and never answers included).
pub const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// How long one statement may run on the server (`statement_timeout`): the fleet's queries
/// take milliseconds over 20,000 benches, so this only ends a runaway or a stuck one.
pub const STATEMENT_WAIT: Duration = Duration::from_secs(20);

/// How long a statement waits for a lock another session holds (`lock_timeout`): a table
/// locked by someone else is said in 5 s, not waited on (Ctrl-C kept saving for 38 s).
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The client's own bound on an answer: the server's limit and a margin for the network, so a
/// server that stops answering mid-statement ends the wait too.
pub const ANSWER_WAIT: Duration = Duration::from_secs(25);

/// The tables a bench writes and the fleet reads.
const TABLES: [&str; 4] = ["bench", "run", "disk_sample", "disk_busy"];

/// The advisory lock schema changes hold (`pg_advisory_lock`): two first pushes into an empty
/// database create the tables one after the other, not both at once. Any fixed number
/// serves; this is "zpoolsim" in ASCII.
const SCHEMA_LOCK: i64 = 0x7a70_6f6f_6c73_696d;

pub(crate) struct Postgres {
    runtime: tokio::runtime::Runtime,
    client: Client,
    place: String,
}

impl Postgres {
    /// Connects within `CONNECT_WAIT` and sets the session's statement and lock limits.
    pub(crate) fn connect(server: &Server) -> Result<Postgres> {
        let place = server.place().to_string();
        let cannot =
            |why: String| StoreError(format!("results database {place}: cannot connect: {why}"));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| cannot(e.to_string()))?;
        let connecting = runtime.block_on(async {
            tokio::time::timeout(CONNECT_WAIT, server.config.connect(NoTls)).await
        });
        let (client, connection) = match connecting {
            Ok(Ok(pair)) => pair,
            Ok(Err(e)) => return Err(cannot(one_line(&e))),
            Err(_) => {
                return Err(cannot(format!(
                    "no answer within {} s",
                    CONNECT_WAIT.as_secs()
                )))
            }
        };
        // The connection's half runs whenever a statement is waited on (a runtime of one
        // thread, driven by `block_on`), as the synchronous `postgres` crate drives it.
        runtime.spawn(async move { drop(connection.await) });
        let mut db = Postgres {
            runtime,
            client,
            place,
        };
        db.batch(&format!(
            "SET statement_timeout = {}; SET lock_timeout = {}",
            STATEMENT_WAIT.as_millis(),
            LOCK_WAIT.as_millis()
        ))?;
        Ok(db)
    }

    /// Waits for a statement's answer at most `ANSWER_WAIT`.
    fn wait<T>(
        &self,
        work: impl Future<Output = std::result::Result<T, tokio_postgres::Error>>,
    ) -> Result<T> {
        match self
            .runtime
            .block_on(async { tokio::time::timeout(ANSWER_WAIT, work).await })
        {
            Ok(answer) => answer.map_err(|e| self.fail(&e)),
            Err(_) => Err(StoreError(format!(
                "results database {}: no answer within {} s",
                self.place,
                ANSWER_WAIT.as_secs()
            ))),
        }
    }

    fn fail(&self, e: &tokio_postgres::Error) -> StoreError {
        StoreError(format!("results database {}: {}", self.place, one_line(e)))
    }
}

/// The server's message where it sent one (the driver's own Display says only "db error"),
/// a lock or statement limit named as such.
fn one_line(e: &tokio_postgres::Error) -> String {
    use tokio_postgres::error::SqlState;
    let text = match e.as_db_error() {
        Some(db) if *db.code() == SqlState::LOCK_NOT_AVAILABLE => format!(
            "{} (another session holds the table; waited {} s)",
            db.message(),
            LOCK_WAIT.as_secs()
        ),
        Some(db) => db.message().to_string(),
        None => match std::error::Error::source(e) {
            Some(source) => format!("{e}: {source}"),
            None => e.to_string(),
        },
    };
    model::input::escape_controls(text.lines().next().unwrap_or_default())
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut tokio_postgres::types::private::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) if *ty == Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
            Value::Int(v) if *ty == Type::FLOAT8 => (*v as f64).to_sql(ty, out),
            Value::Int(v) => v.to_sql(ty, out),
            Value::Real(v) => v.to_sql(ty, out),
            Value::Text(v) => v.as_str().to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        [
            Type::INT4,
            Type::INT8,
            Type::FLOAT8,
            Type::TEXT,
            Type::VARCHAR,
        ]
        .contains(ty)
    }

    tokio_postgres::types::to_sql_checked!();
}

/// One column of a row, by its type.
fn value(row: &tokio_postgres::Row, i: usize) -> std::result::Result<Value, tokio_postgres::Error> {
    let ty = row.columns()[i].type_().clone();
    Ok(if ty == Type::INT8 {
        row.try_get::<_, Option<i64>>(i)?
            .map_or(Value::Null, Value::Int)
    } else if ty == Type::INT4 {
        row.try_get::<_, Option<i32>>(i)?
            .map_or(Value::Null, |v| Value::Int(v.into()))
    } else if ty == Type::FLOAT8 {
        row.try_get::<_, Option<f64>>(i)?
            .map_or(Value::Null, Value::Real)
    } else {
        row.try_get::<_, Option<String>>(i)?
            .map_or(Value::Null, Value::Text)
    })
}

impl Backend for Postgres {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        self.wait(self.client.batch_execute(sql))
    }

    fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64> {
        let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        self.wait(self.client.execute(sql, &refs))
    }

    fn rows(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>> {
        let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        let rows = self.wait(self.client.query(sql, &refs))?;
        rows.iter()
            .map(|r| (0..r.len()).map(|i| value(r, i)).collect())
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| self.fail(&e))
    }

    /// The schema's advisory lock, held by the session around the migration's transaction:
    /// taken before BEGIN, so the transaction starts after the other session's commit and its
    /// catalog lookups see the tables it made (a transaction-scoped lock taken after BEGIN
    /// left this session's cached "no such table" in place).
    fn schema_lock(&mut self, held: bool) -> Result<()> {
        let sql = if held {
            "SELECT pg_advisory_lock($1)"
        } else {
            "SELECT pg_advisory_unlock($1)"
        };
        self.exec(sql, &[SCHEMA_LOCK.into()]).map(drop)
    }

    fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// The `zpoolsim_schema` table's version; 0 for a database without zpoolsim's tables.
    fn schema_version(&mut self) -> Result<i64> {
        let rows = self.rows(
            "SELECT (to_regclass('zpoolsim_schema') IS NOT NULL)::int, (to_regclass('bench') IS NOT NULL)::int",
            &[],
        )?;
        match (rows[0][0].int()?, rows[0][1].int()?) {
            (1, _) => super::schema::recorded(self),
            (0, 0) => Ok(0),
            _ => Err(StoreError(format!(
                "results database {} has a table 'bench' zpoolsim did not make: give another database",
                self.place
            ))),
        }
    }

    /// A read-only session, or a role that may not add rows to every table or read them back
    /// (a bench reads its own rows), is refused.
    fn check_writable(&mut self) -> Result<()> {
        let read_only =
            super::sql::scalar(self, "SELECT current_setting('transaction_read_only')", &[])?;
        if read_only.text()? == "on" {
            return Err(StoreError(format!(
                "results database {} is read-only for this session: give a role that may write",
                self.place
            )));
        }
        for table in TABLES {
            for (privilege, what) in [("INSERT", "add rows to"), ("SELECT", "read")] {
                let may = super::sql::scalar(
                    self,
                    "SELECT has_table_privilege($1::text, $2::text)::int",
                    &[table.into(), privilege.into()],
                )?;
                if may.int()? != 1 {
                    return Err(StoreError(format!(
                        "results database {}: this role may not {what} '{table}': grant it {privilege}, or give a role that may write and read",
                        self.place
                    )));
                }
            }
        }
        Ok(())
    }

    fn place(&self) -> String {
        self.place.clone()
    }
}
