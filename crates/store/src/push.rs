//! `zpoolsim results --push URL`: this machine's benches copied into another store (a team's
//! PostgreSQL), each once: a bench whose uid the target holds is passed over, so a push run
//! twice stores nothing twice. The source is read in batches of `BATCH`; each bench is written
//! in a transaction of its own, so a killed push leaves no partial bench; one that cannot be
//! read or written is reported and skipped, and the push goes on.

use super::sql::Value;
use super::Store;
use crate::Result;
use serde::Serialize;

/// Benches looked up at a time.
const BATCH: i64 = 100;

/// What a push did.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Pushed {
    /// Benches copied, by their id here.
    pub copied: Vec<i64>,
    /// Benches the target already held.
    pub already: usize,
    /// Benches that could not be copied, a sentence each.
    pub skipped: Vec<String>,
}

impl Store {
    /// Copies every bench of this store that `target` lacks into it.
    pub fn push_to(&mut self, target: &mut Store) -> Result<Pushed> {
        let mut out = Pushed::default();
        let mut after = 0i64;
        loop {
            let batch = self.db.rows(
                "SELECT id, uid FROM bench WHERE id > $1 ORDER BY id LIMIT $2",
                &[after.into(), BATCH.into()],
            )?;
            let Some(last) = batch.last() else {
                return Ok(out);
            };
            after = last[0].int()?;
            let held = target.held(&batch)?;
            for row in &batch {
                let (id, uid) = (row[0].int()?, row[1].text()?);
                if held.contains(&uid) {
                    out.already += 1;
                    continue;
                }
                match self.load(id).and_then(|b| target.save(&b)) {
                    Ok(_) => out.copied.push(id),
                    Err(e) => out.skipped.push(format!("bench {id}: {e}")),
                }
            }
        }
    }

    /// Which of a batch's uids this store holds: one query for the batch.
    fn held(&mut self, batch: &[Vec<Value>]) -> Result<Vec<String>> {
        let marks: Vec<String> = (1..=batch.len()).map(|i| format!("${i}")).collect();
        let sql = format!("SELECT uid FROM bench WHERE uid IN ({})", marks.join(", "));
        let uids: Vec<Value> = batch.iter().map(|r| r[1].clone()).collect();
        self.db
            .rows(&sql, &uids)?
            .iter()
            .map(|r| r[0].text())
            .collect()
    }
}
