//! `zpoolsim reliability [SYSTEM.toml]`: how long a rebuild leaves the pool exposed and how
//! likely it is to lose data over a mission: every rebuild explained (bytes to move, the
//! limiting resource), Elling's closed form and a seeded Monte Carlo beside it.

use crate::error::CliResult;
use crate::files::{print_json, Files};
use crate::progress::while_working;
use crate::render::assessment;
use request::ReliabilityRequest;

/// Resilver time and the chance of losing data (default: the embedded default system).
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub request: ReliabilityRequest,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let answer = while_working("rebuilds and the Monte Carlo", || {
        args.request.answer(&Files)
    })?;
    if args.json {
        return print_json(&answer);
    }
    println!("{}: pool {}", answer.system, answer.layout);
    print!("{}", assessment(&answer.assessment));
    Ok(())
}
