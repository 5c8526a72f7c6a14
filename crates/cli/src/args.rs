//! Argument groups that several subcommands share and no request holds.

use crate::error::CliError;
use store::{Location, Store};

/// The results store of bench, results and fleet.
#[derive(clap::Args)]
pub(crate) struct Db {
    /// The results store: a SQLite file, or a PostgreSQL database as
    /// postgres://USER@HOST[:PORT]/DB (the password from $PGPASSWORD or ~/.pgpass, as psql
    /// takes it; default: $ZPOOLSIM_DB, else $XDG_DATA_HOME/zpoolsim/results.sqlite, or
    /// ~/.local/share/zpoolsim/results.sqlite when XDG_DATA_HOME is unset).
    #[arg(long = "db", value_name = "FILE|URL")]
    pub file: Option<String>,
}

impl Db {
    pub(crate) fn location(&self) -> store::Result<Location> {
        Location::from_flag(self.file.as_deref())
    }

    /// The store to read with its newest bench's id, or, when it holds no bench yet (none made, or made and empty), the
    /// sentence every reading command (results, fleet, bench --compare) prints with exit 0: a
    /// machine that never benched has an answer, not an error. Nothing is made.
    pub(crate) fn to_read(&self) -> Result<Result<(Store, i64), String>, CliError> {
        let at = self.location()?;
        if at.is_absent() {
            return Ok(Err(format!(
                "no results yet: {at} does not exist (`zpoolsim bench DIR` makes it)"
            )));
        }
        let mut store = Store::open_existing(&at)?;
        Ok(match store.latest()? {
            Some(newest) => Ok((store, newest)),
            None => Err(format!(
                "no results yet: {at} holds no bench (`zpoolsim bench DIR` stores one)"
            )),
        })
    }
}

/// Prints "no results yet": `empty` (the answer's JSON shape with nothing in it) with --json,
/// else the sentence.
pub(crate) fn no_results_yet<T: serde::Serialize>(
    sentence: &str,
    json: bool,
    empty: T,
) -> crate::error::CliResult {
    if json {
        return crate::files::print_json(&empty);
    }
    println!("{sentence}");
    Ok(())
}
