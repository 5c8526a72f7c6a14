//! A pool of connections to one store, for a server that answers many requests over days
//! (`serve --db`): each request borrows a connection, one that the database closed (it
//! restarted) or that fails a `SELECT 1` is replaced by a new one, and a request waits for a
//! connection at most `CONNECT_WAIT` (r2d2).

use super::postgres::CONNECT_WAIT;
use super::{Location, Store};
use crate::{Result, StoreError};

/// Connections the fleet view keeps: its queries take milliseconds, so a few serve many
/// readers, and a team's database is not filled with idle sessions.
const CONNECTIONS: u32 = 4;

/// Opens stores at one location for the pool.
struct Opener(Location);

impl r2d2::ManageConnection for Opener {
    type Connection = Store;
    type Error = StoreError;

    fn connect(&self) -> Result<Store> {
        Store::connect(&self.0)
    }

    fn is_valid(&self, store: &mut Store) -> Result<()> {
        store.ping()
    }

    fn has_broken(&self, store: &mut Store) -> bool {
        store.is_closed()
    }
}

/// Stores at one location, lent one request at a time.
pub struct StorePool {
    pool: r2d2::Pool<Opener>,
    at: Location,
}

impl StorePool {
    /// The pool of a store that must exist; the first connection is made now, so a store that
    /// cannot be reached is refused before the server starts.
    pub fn open(at: &Location) -> Result<StorePool> {
        drop(Store::open_existing(at)?);
        let pool = r2d2::Pool::builder()
            .max_size(CONNECTIONS)
            .min_idle(Some(0))
            .connection_timeout(CONNECT_WAIT)
            .test_on_check_out(true)
            .error_handler(Box::new(r2d2::NopErrorHandler))
            .build_unchecked(Opener(at.clone()));
        Ok(StorePool {
            pool,
            at: at.clone(),
        })
    }

    /// A store to use now: within `CONNECT_WAIT`, or the reason there is none.
    pub fn get(
        &self,
    ) -> Result<r2d2::PooledConnection<impl r2d2::ManageConnection<Connection = Store>>> {
        self.pool.get().map_err(|e| {
            StoreError(format!(
                "results database {}: no connection within {} s: {e}",
                self.at,
                CONNECT_WAIT.as_secs()
            ))
        })
    }
}
