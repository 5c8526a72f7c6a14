//! Argument groups that several subcommands share and no request holds.

use store::Location;

/// The results store of bench, results and fleet.
#[derive(clap::Args)]
pub struct Db {
    /// The results store: a SQLite file, or a PostgreSQL database as
    /// postgres://USER@HOST[:PORT]/DB (the password from $PGPASSWORD or ~/.pgpass, as psql
    /// takes it; default: $ZPOOLSIM_DB, else $XDG_DATA_HOME/zpoolsim/results.sqlite, or
    /// ~/.local/share/zpoolsim/results.sqlite when XDG_DATA_HOME is unset).
    #[arg(long = "db", value_name = "FILE|URL")]
    pub file: Option<String>,
}

impl Db {
    pub fn location(&self) -> store::Result<Location> {
        Location::from_flag(self.file.as_deref())
    }
}
