//! The shared backend: a PostgreSQL database a team's machines all write to (the `postgres`
//! crate, synchronous, without TLS: a server on the team's own network or a tunnel). Before it
//! is used the connection is made (within `CONNECT_WAIT`), and the role must be able to write:
//! a read-only session or a role without INSERT on the tables is refused.

use super::sql::{Backend, Dialect, Value};
use crate::{Result, StoreError};
use postgres::types::{IsNull, ToSql, Type};
use postgres::{Client, Config, NoTls};
use std::time::Duration;

/// How long connecting may take before the server is called unreachable.
const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// The tables a bench writes.
const TABLES: [&str; 4] = ["bench", "run", "disk_sample", "disk_busy"];

pub struct Postgres {
    client: Client,
    place: String,
}

impl Postgres {
    pub fn connect(url: &str) -> Result<Postgres> {
        let place = without_password(url);
        let mut config: Config = url
            .parse()
            .map_err(|e| StoreError(format!("results database {place}: {e}")))?;
        config.connect_timeout(CONNECT_WAIT);
        let client = config.connect(NoTls).map_err(|e| {
            StoreError(format!(
                "results database {place}: cannot connect: {}",
                one_line(&e)
            ))
        })?;
        Ok(Postgres { client, place })
    }

    fn fail(&self, e: postgres::Error) -> StoreError {
        StoreError(format!("results database {}: {}", self.place, one_line(&e)))
    }
}

/// The server's message where it sent one (the driver's own Display says only "db error").
fn one_line(e: &postgres::Error) -> String {
    let text = match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => match std::error::Error::source(e) {
            Some(source) => format!("{e}: {source}"),
            None => e.to_string(),
        },
    };
    text.lines().next().unwrap_or_default().to_string()
}

/// The URL as messages show it: the password replaced by `***`.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (auth, host) = match rest.rsplit_once('@') {
        Some((auth, host)) => (auth, host),
        None => return url.to_string(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
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

    postgres::types::to_sql_checked!();
}

/// One column of a row, by its type.
fn value(row: &postgres::Row, i: usize) -> std::result::Result<Value, postgres::Error> {
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
        self.client.batch_execute(sql).map_err(|e| self.fail(e))
    }

    fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64> {
        let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        self.client.execute(sql, &refs).map_err(|e| self.fail(e))
    }

    fn rows(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>> {
        let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
        let rows = self.client.query(sql, &refs).map_err(|e| self.fail(e))?;
        rows.iter()
            .map(|r| (0..r.len()).map(|i| value(r, i)).collect())
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| self.fail(e))
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

    /// A read-only session, or a role that may not add rows to every table, is refused.
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
            let may = super::sql::scalar(
                self,
                "SELECT has_table_privilege($1::text, 'INSERT')::int",
                &[table.into()],
            )?;
            if may.int()? != 1 {
                return Err(StoreError(format!(
                    "results database {}: this role may not add rows to '{table}': grant it INSERT, or give a role that may write",
                    self.place
                )));
            }
        }
        Ok(())
    }

    fn place(&self) -> String {
        self.place.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::without_password;

    #[test]
    fn a_password_never_reaches_a_message() {
        assert_eq!(
            without_password("postgres://team:s3cr3t@db.example.net:5433/zpoolsim"),
            "postgres://team:***@db.example.net:5433/zpoolsim"
        );
        assert_eq!(
            without_password("postgresql://a:b:c@h/d"),
            "postgresql://a:***@h/d"
        );
        let plain = "postgres://team@db/zpoolsim";
        assert_eq!(without_password(plain), plain);
    }
}
