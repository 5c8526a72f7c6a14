//! Argument groups that several subcommands share and no request holds.

/// The results database of bench and results.
#[derive(clap::Args)]
pub struct Db {
    /// The results database (default: $XDG_DATA_HOME/zpoolsim/results.sqlite, or
    /// ~/.local/share/zpoolsim/results.sqlite when XDG_DATA_HOME is unset).
    #[arg(long = "db", value_name = "FILE")]
    pub file: Option<String>,
}

impl Db {
    pub fn path(&self) -> std::path::PathBuf {
        self.file
            .as_ref()
            .map_or_else(measure::default_path, std::path::PathBuf::from)
    }
}
