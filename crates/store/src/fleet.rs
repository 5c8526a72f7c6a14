//! `zpoolsim fleet`: the newest bench of every host and pool, each workload's measured
//! throughput over the prediction made at the time (or, with `--repredict`, the current
//! model's), flagged where it falls below the prediction's band (the prediction less its
//! expected error), with the bottleneck the model names. Paged: a page's keys are found by one
//! grouped query over the `bench_newest` index, its runs by a second.

use super::sql::Value;
use super::{Predicted, Store};
use crate::{Result, StoreError};
use serde::Serialize;
use std::collections::BTreeMap;

/// Which pools, and which page of them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FleetQuery {
    /// Only this host's pools; `None`: every host's.
    pub host: Option<String>,
    /// Only pools of this name; `None`: every pool.
    pub pool: Option<String>,
    /// Only benches started at or after this UTC time (RFC 3339).
    pub since: Option<String>,
    /// Pools on a page at most.
    pub limit: u32,
    /// Pools skipped before the page.
    pub offset: u32,
}

/// One page of the fleet: the newest bench of each host and pool, in host, machine and pool order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetPage {
    /// Pools skipped before it, as asked.
    pub offset: u32,
    /// Pools on a page at most, as asked.
    pub limit: u32,
    /// Whether pools follow this page (ask again with `offset + limit`).
    pub more: bool,
    /// The page's pools.
    pub pools: Vec<FleetRow>,
}

/// One host's pool, by its newest bench.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetRow {
    /// The host's name.
    pub host: String,
    /// The host's /etc/machine-id: two machines of one name stay apart.
    pub machine_id: String,
    /// The pool's name.
    pub pool: String,
    /// The newest bench of the pool: its id in the store.
    pub bench_id: i64,
    /// When that bench started: UTC, RFC 3339.
    pub started: String,
    /// The zpoolsim that ran it.
    pub zpoolsim_version: String,
    /// Whether the predictions are the current model's rather than those stored.
    pub repredicted: bool,
    /// Whether any workload fell below its prediction's band.
    pub flagged: bool,
    /// Each workload of the bench.
    pub workloads: Vec<FleetWorkload>,
}

/// One workload of a fleet row: measured against predicted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetWorkload {
    /// The workload as the model reads it.
    pub workload: String,
    /// What fio measured, bytes per second.
    pub measured_bytes_per_s: f64,
    /// What the model predicted, bytes per second.
    pub predicted_bytes_per_s: f64,
    /// Measured over predicted; absent where nothing was predicted.
    pub ratio: Option<f64>,
    /// The prediction's expected error, percent: the band is predicted x (1 - this/100) and up.
    pub expected_error_pct: f64,
    /// Measured below the band.
    pub short: bool,
    /// What the model names as the limit, one sentence.
    pub bottleneck: String,
}

impl FleetWorkload {
    fn new(workload: String, measured: f64, p: Predicted) -> FleetWorkload {
        let band_floor = p.bytes_per_s * (1.0 - p.expected_error_pct / 100.0);
        FleetWorkload {
            workload,
            measured_bytes_per_s: measured,
            predicted_bytes_per_s: p.bytes_per_s,
            ratio: (p.bytes_per_s > 0.0).then(|| measured / p.bytes_per_s),
            expected_error_pct: p.expected_error_pct,
            short: p.bytes_per_s > 0.0 && measured < band_floor,
            bottleneck: p.bottleneck,
        }
    }
}

/// The newest bench of each host and pool of the page: their ids.
const NEWEST: &str = "
WITH newest AS (
    SELECT host, machine_id, pool, max(started) AS started FROM bench
    WHERE ($1 = '' OR host = $1) AND ($2 = '' OR pool = $2) AND started >= $3
    GROUP BY host, machine_id, pool
    ORDER BY host, machine_id, pool
    LIMIT $4 OFFSET $5)
SELECT max(b.id) FROM bench b JOIN newest n
    ON b.host = n.host AND b.machine_id = n.machine_id AND b.pool = n.pool AND b.started = n.started
GROUP BY b.host, b.machine_id, b.pool
ORDER BY b.host, b.machine_id, b.pool";

/// A list of ids for `IN (...)`: integers the database gave, so written as they are.
fn id_list(ids: &[i64]) -> String {
    ids.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Store {
    /// A page of the fleet; with `repredict`, each run predicted again from its bench's system
    /// file by the current model (the catalog reads the files).
    pub fn fleet(
        &mut self,
        q: &FleetQuery,
        repredict: Option<&model::Catalog>,
    ) -> Result<FleetPage> {
        let text = |v: &Option<String>| Value::Text(v.clone().unwrap_or_default());
        let keys = self.db.rows(
            NEWEST,
            &[
                text(&q.host),
                text(&q.pool),
                text(&q.since),
                i64::from(q.limit + 1).into(),
                i64::from(q.offset).into(),
            ],
        )?;
        let mut ids = keys
            .iter()
            .map(|r| r[0].int())
            .collect::<Result<Vec<_>>>()?;
        let more = ids.len() > q.limit as usize;
        ids.truncate(q.limit as usize);
        let mut pools = self.fleet_rows(&ids)?;
        if let Some(catalog) = repredict {
            for row in &mut pools {
                self.repredict(row, catalog)?;
            }
        }
        Ok(FleetPage {
            offset: q.offset,
            limit: q.limit,
            more,
            pools,
        })
    }

    /// One host's pool: its newest `limit` benches as fleet rows, oldest first (for a chart).
    pub fn history(
        &mut self,
        host: &str,
        machine_id: &str,
        pool: &str,
        limit: u32,
    ) -> Result<Vec<FleetRow>> {
        let ids = self
            .db
            .rows(
                "SELECT id FROM bench WHERE host = $1 AND machine_id = $2 AND pool = $3 ORDER BY started DESC, id DESC LIMIT $4",
                &[host.into(), machine_id.into(), pool.into(), i64::from(limit).into()],
            )?
            .iter()
            .map(|r| r[0].int())
            .collect::<Result<Vec<_>>>()?;
        let mut rows = self.fleet_rows(&ids)?;
        rows.sort_by(|a, b| (&a.started, a.bench_id).cmp(&(&b.started, b.bench_id)));
        Ok(rows)
    }

    fn fleet_rows(&mut self, ids: &[i64]) -> Result<Vec<FleetRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = id_list(ids);
        let mut runs: BTreeMap<i64, Vec<FleetWorkload>> = BTreeMap::new();
        let sql = format!("SELECT bench_id, workload, read_bytes_per_s + write_bytes_per_s, predicted_bytes_per_s, expected_error_pct, bottleneck FROM run WHERE bench_id IN ({list}) ORDER BY id");
        for r in self.db.rows(&sql, &[])? {
            let p = Predicted {
                bytes_per_s: r[3].real()?,
                expected_error_pct: r[4].real()?,
                bottleneck: r[5].text()?,
            };
            let w = FleetWorkload::new(r[1].text()?, r[2].real()?, p);
            runs.entry(r[0].int()?).or_default().push(w);
        }
        let sql = format!("SELECT id, host, machine_id, pool, started, zpoolsim_version FROM bench WHERE id IN ({list}) ORDER BY host, machine_id, pool");
        self.db
            .rows(&sql, &[])?
            .iter()
            .map(|r| {
                let workloads = runs.remove(&r[0].int()?).unwrap_or_default();
                Ok(FleetRow {
                    bench_id: r[0].int()?,
                    host: r[1].text()?,
                    machine_id: r[2].text()?,
                    pool: r[3].text()?,
                    started: r[4].text()?,
                    zpoolsim_version: r[5].text()?,
                    repredicted: false,
                    flagged: workloads.iter().any(|w| w.short),
                    workloads,
                })
            })
            .collect()
    }

    /// The row's runs predicted by the current model on the system file of their bench.
    fn repredict(&mut self, row: &mut FleetRow, catalog: &model::Catalog) -> Result<()> {
        let toml = super::sql::scalar(
            self.db.as_mut(),
            "SELECT system_toml FROM bench WHERE id = $1",
            &[row.bench_id.into()],
        )?
        .text()?;
        let name = format!("the system file of bench {}", row.bench_id);
        let system = model::system_file::parse(&toml, &name, catalog)
            .map_err(|e| StoreError(format!("{name} does not read: {e}")))?;
        for w in &mut row.workloads {
            let workload = model::Workload::parse(&w.workload)
                .map_err(|e| StoreError(format!("bench {}: {e}", row.bench_id)))?;
            let p = perf::predict(&system, &workload)
                .map_err(|e| StoreError(format!("bench {}: {}: {e}", row.bench_id, w.workload)))?;
            let predicted = Predicted {
                bytes_per_s: p.throughput_bytes_per_s,
                expected_error_pct: p.expected_error_pct,
                bottleneck: p.bottleneck.sentence,
            };
            *w = FleetWorkload::new(w.workload.clone(), w.measured_bytes_per_s, predicted);
        }
        row.repredicted = true;
        row.flagged = row.workloads.iter().any(|w| w.short);
        Ok(())
    }
}
