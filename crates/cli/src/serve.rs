//! `zpoolsim serve`: the planner as a web page, and a JSON API answering what `--json`
//! prints, on this machine (crates/web).

use crate::error::{CliError, CliResult};
use crate::files::catalog;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};

/// Serve the planner as a web page, and a JSON API over the engines (POST /api/plan,
/// /api/capacity, /api/predict, /api/reliability: a JSON object whose keys are the command's
/// flags, answered as its --json prints it). Nothing is written to disk; stop it with Ctrl-C.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The port to listen on (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on: 127.0.0.1 (this machine only, the default), or 0.0.0.0 to
    /// let other machines of the network in (a warning says so: there is no login).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub listen: String,
    /// Plans, predictions and reliability assessments worked on at once (1 to 256; default:
    /// one per core). Twice as many more wait their turn; beyond that, or after 20 s, a
    /// request is answered 503 with Retry-After. The page, the disks, capacity and system
    /// files are answered at once whatever the load.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub workers: Option<u16>,
    /// A results store (a SQLite file or a postgres:// URL) to show as the fleet view at
    /// /fleet: every host's pools, each pool's history, each bench's detail.
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<String>,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let ip: IpAddr = args.listen.trim().parse().map_err(|_| {
        CliError(format!(
            "--listen '{}': expected an IP address like 127.0.0.1 or 0.0.0.0",
            model::input::echo(&args.listen)
        ))
    })?;
    let mut server = web::Server::bind(SocketAddr::new(ip, args.port), catalog())?;
    if let Some(workers) = args.workers {
        server = server.with_workers(workers.into());
    }
    if let Some(db) = &args.db {
        server = server.with_fleet(std::sync::Arc::new(crate::fleet::StoreView::open(db)?));
    }
    if !ip.is_loopback() {
        eprintln!("{}", exposed(ip, args.db.is_some()));
    }
    println!("zpoolsim: serving http://{}/", server.address());
    std::io::stdout().flush()?;
    Ok(server.run()?)
}

/// The warning for an address other machines reach: the server has no login, so whoever
/// reaches the port uses the planner's CPU and reads the fleet store.
fn exposed(ip: IpAddr, fleet: bool) -> String {
    let store = if fleet {
        " and reads every bench of the --db store"
    } else {
        ""
    };
    format!(
        "zpoolsim: warning: listening on {ip}, not this machine only: there is no login, anyone who reaches the port uses the planner{store} (127.0.0.1 keeps it to this machine)"
    )
}
