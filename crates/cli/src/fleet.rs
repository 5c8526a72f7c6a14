//! `zpoolsim fleet`: every host's pools by their newest bench, measured beside predicted,
//! the pools that fall short of their prediction flagged.

use crate::args::{no_results_yet, Db};
use crate::error::{CliError, CliResult};
use crate::files::{catalog, print_json};
use model::input::escape_controls;
use store::{FleetPage, FleetQuery, Store, StorePool};

/// The fleet in one table: one row per host and pool (its newest bench), each workload's
/// measured throughput over the prediction made at the time, flagged (!) where it falls below
/// the prediction's band (the prediction less its expected error), with the bottleneck the
/// model names. Reads whichever store --db or ZPOOLSIM_DB names (a team's PostgreSQL).
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub db: Db,
    /// Only this host (its hostname as the bench stored it).
    #[arg(long)]
    pub host: Option<String>,
    /// Only pools of this name.
    #[arg(long)]
    pub pool: Option<String>,
    /// Only benches at most this old: a number of days, or with a unit (12h, 30d; 1h to 3650d).
    #[arg(long, value_name = "AGE")]
    pub age: Option<String>,
    /// Predict each run again with this zpoolsim's model, from the system file stored with it.
    #[arg(long)]
    pub repredict: bool,
    /// Pools per page (1 to 1000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub limit: u32,
    /// Pools to pass over first (the next page: the offset plus the limit).
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let query = FleetQuery {
        host: args.host.clone(),
        pool: args.pool.clone(),
        since: args.age.as_deref().map(since).transpose()?,
        limit: args.limit,
        offset: args.offset,
    };
    let mut store = match args.db.to_read()? {
        Ok((store, _)) => store,
        Err(none) => {
            let empty = FleetPage {
                offset: query.offset,
                limit: query.limit,
                more: false,
                pools: Vec::new(),
            };
            return no_results_yet(&none, args.json, empty);
        }
    };
    let page = store.fleet(&query, args.repredict.then(catalog))?;
    if args.json {
        return print_json(&page);
    }
    print!("{}", table(&page));
    Ok(())
}

/// The UTC time `age` ago.
fn since(age: &str) -> Result<String, CliError> {
    let text = age.trim();
    let (number, unit) = match text.strip_suffix('h') {
        Some(n) => (n, 3600),
        None => (text.strip_suffix('d').unwrap_or(text), 86_400),
    };
    let seconds = number
        .trim()
        .parse::<u32>()
        .ok()
        .map(|n| i64::from(n) * unit)
        .filter(|s| (3600..=3650 * 86_400).contains(s))
        .ok_or_else(|| {
            CliError(format!(
                "--age {}: give days (30, 30d) or hours (12h), from 1h to 3650d",
                model::input::echo(age)
            ))
        })?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    Ok(store::utc(now - seconds))
}

fn table(page: &FleetPage) -> String {
    let mut out = format!(
        "{:<16} {:<12} {:<20} {:<34} {:>9} {:>9} {:>6}  bottleneck\n",
        "host", "pool", "newest bench (UTC)", "workload", "MB/s", "pred", "ratio"
    );
    for row in &page.pools {
        for (i, w) in row.workloads.iter().enumerate() {
            // Stored words came from other machines: control characters escaped.
            let (host, pool, started) = if i == 0 {
                (
                    escape_controls(&row.host),
                    escape_controls(&row.pool),
                    escape_controls(&row.started),
                )
            } else {
                Default::default()
            };
            let ratio = w.ratio.map_or("-".into(), |r| format!("{r:.2}"));
            let flag = if w.short { "!" } else { " " };
            out += &format!(
                "{host:<16} {pool:<12} {started:<20} {:<34} {:>9.1} {:>9.1} {ratio:>5}{flag}  {}\n",
                escape_controls(&w.workload),
                w.measured_bytes_per_s / 1e6,
                w.predicted_bytes_per_s / 1e6,
                escape_controls(&w.bottleneck)
            );
        }
    }
    let flagged = page.pools.iter().filter(|r| r.flagged).count();
    out += &format!(
        "\n{} pools, {flagged} flagged (!: measured below the prediction less its expected error)\n",
        page.pools.len()
    );
    if page.more {
        out += &format!("more pools follow: --offset {}\n", page.offset + page.limit);
    }
    out
}

/// The results store as `serve --db` shows it (web::Fleet): a pool of connections, so
/// requests are answered side by side and a connection the database dropped (a restart) is
/// replaced rather than failing every request after it.
pub(crate) struct StoreView(StorePool);

impl StoreView {
    /// Opens the store (it must exist and answer) before the server starts.
    pub(crate) fn open(db: &str) -> Result<StoreView, CliError> {
        let at = store::Location::from_flag(Some(db))?;
        Ok(StoreView(StorePool::open(&at)?))
    }

    fn with<T: serde::Serialize>(
        &self,
        work: impl FnOnce(&mut Store) -> store::Result<T>,
    ) -> Result<serde_json::Value, String> {
        let mut store = self.0.get().map_err(|e| e.to_string())?;
        let answer = work(&mut store).map_err(|e| e.to_string())?;
        serde_json::to_value(answer).map_err(|e| e.to_string())
    }
}

impl web::Fleet for StoreView {
    fn page(
        &self,
        host: Option<&str>,
        pool: Option<&str>,
        offset: u32,
    ) -> Result<serde_json::Value, String> {
        let query = FleetQuery {
            host: host.map(str::to_string),
            pool: pool.map(str::to_string),
            since: None,
            limit: 100,
            offset,
        };
        self.with(|s| s.fleet(&query, None))
    }

    fn history(
        &self,
        host: &str,
        machine_id: &str,
        pool: &str,
        limit: u32,
    ) -> Result<serde_json::Value, String> {
        self.with(|s| s.history(host, machine_id, pool, limit))
    }

    fn bench(&self, id: i64) -> Result<serde_json::Value, String> {
        self.with(|s| {
            let b = s.load(id)?;
            Ok(serde_json::json!({
                "id": id,
                "host": b.host.name,
                "pool": b.pool,
                "started": b.started,
                "zpoolsim_version": b.zpoolsim_version,
                "comparison": bench::compare(&b),
            }))
        })
    }
}
