//! `zpoolsim capacity` (being written).

use crate::error::CliResult;

/// (being written)
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: &Args) -> CliResult {
    Ok(())
}
