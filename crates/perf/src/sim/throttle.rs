//! The txg and the write throttle as a writer meets them: each write adds its bytes to the
//! open txg's dirty data; a txg syncs once its dirty data pass zfs_dirty_data_sync_percent
//! of zfs_dirty_data_max or zfs_txg_timeout after the last began, one at a time, draining at
//! the pool's write rate; and before each write dmu_tx_delay holds the writer for
//! zfs_delay_scale x (dirty - min) / (max - dirty), min = zfs_delay_min_dirty_percent of
//! max, at most zfs_delay_max_ns, each delayed writer waking at least that long after the
//! previous one (dp_last_wakeup). Past max, dmu_tx_wait blocks until the sync frees room.
//! Figures from OpenZFS 2.2.9's dsl_pool.c and dmu_tx.c.

/// zfs_delay_scale: 1e9 / 2000 ns, the delay at the curve's midpoint (dsl_pool.c).
pub(crate) const DELAY_SCALE_S: f64 = 500e-6;
/// zfs_delay_max_ns: 100 ms (dmu_tx.c).
pub(crate) const DELAY_MAX_S: f64 = 0.1;
/// zfs_delay_min_dirty_percent (dsl_pool.c).
pub(crate) const DELAY_MIN_DIRTY: f64 = 0.60;
/// zfs_dirty_data_sync_percent (dsl_pool.c).
const SYNC_DIRTY: f64 = 0.20;
/// zfs_txg_timeout: 5 s (txg.c).
const TXG_TIMEOUT_S: f64 = 5.0;

/// The throttle of one pool for one workload's writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Throttle {
    /// zfs_dirty_data_max, bytes.
    pub dirty_max: f64,
    /// Dirty bytes each job adds.
    pub bytes_per_job: f64,
    /// Bytes per second a syncing txg writes.
    pub drain_bytes_per_s: f64,
    /// Dirty data when the run starts (a writer already in its steady state).
    pub initial_dirty: f64,
}

/// The txgs' dirty data as time passes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct State {
    open: f64,
    syncing: f64,
    /// When the state was last brought up to date, and when the last txg began syncing.
    at: f64,
    txg_start: f64,
    last_wakeup: f64,
    started: bool,
}

impl Throttle {
    /// The delay of a write issued at `now`, whose bytes then join the open txg.
    pub(crate) fn delay_s(&self, st: &mut State, now: f64) -> f64 {
        if !st.started {
            *st = State {
                open: self.initial_dirty,
                started: true,
                ..State::default()
            };
        }
        self.advance(st, now);
        let mut ready = now;
        // dmu_tx_wait: no room below zfs_dirty_data_max until the syncing txg frees some.
        if st.open + st.syncing >= self.dirty_max && st.syncing > 0.0 {
            let room = st.open + st.syncing - self.dirty_max + self.bytes_per_job;
            ready += room.min(st.syncing) / self.drain_bytes_per_s;
            self.advance(st, ready);
        }
        let dirty = (st.open + st.syncing).min(self.dirty_max * 0.999);
        let min = self.dirty_max * DELAY_MIN_DIRTY;
        if dirty > min {
            let tx_time =
                (DELAY_SCALE_S * (dirty - min) / (self.dirty_max - dirty)).min(DELAY_MAX_S);
            // dmu_tx_delay: wakeup = MAX(tx_start + tx_time, dp_last_wakeup + tx_time).
            ready = (now + tx_time).max(ready).max(st.last_wakeup + tx_time);
            st.last_wakeup = ready;
        }
        st.open += self.bytes_per_job;
        if st.syncing <= 0.0 && st.open >= self.dirty_max * SYNC_DIRTY {
            Self::begin_sync(st, now);
        }
        ready - now
    }

    /// Drains the syncing txg up to `now`, starting the next when it ends and the open one
    /// is due (full enough, or timed out).
    fn advance(&self, st: &mut State, now: f64) {
        while st.at < now {
            if st.syncing <= 0.0 {
                let due = st.txg_start + TXG_TIMEOUT_S;
                if st.open > 0.0 && (st.open >= self.dirty_max * SYNC_DIRTY || due <= now) {
                    let at = if st.open >= self.dirty_max * SYNC_DIRTY {
                        st.at
                    } else {
                        due.max(st.at)
                    };
                    Self::begin_sync(st, at);
                    continue;
                }
                st.at = now;
                return;
            }
            let end = st.at + st.syncing / self.drain_bytes_per_s;
            if end > now {
                st.syncing -= (now - st.at) * self.drain_bytes_per_s;
                st.at = now;
                return;
            }
            st.syncing = 0.0;
            st.at = end;
        }
    }

    fn begin_sync(st: &mut State, at: f64) {
        st.syncing = st.open;
        st.open = 0.0;
        st.txg_start = at;
        st.at = st.at.max(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: f64 = 1073741824.0;

    fn throttle(initial: f64) -> Throttle {
        Throttle {
            dirty_max: 4.0 * GIB,
            bytes_per_job: 1048576.0,
            drain_bytes_per_s: 1e9,
            initial_dirty: initial,
        }
    }

    /// Below 60% of zfs_dirty_data_max nobody waits.
    #[test]
    fn no_delay_below_the_minimum() {
        let t = throttle(0.5 * 4.0 * GIB);
        let mut st = State::default();
        assert_eq!(t.delay_s(&mut st, 0.0), 0.0);
    }

    /// At 80% of max: 500 us x (0.8 - 0.6) / (1 - 0.8) = 500 us exactly (dmu_tx_delay's
    /// midpoint), the open txg holding it all before a sync begins.
    #[test]
    fn the_curve_at_its_midpoint() {
        let t = throttle(0.8 * 4.0 * GIB);
        let mut st = State::default();
        let d = t.delay_s(&mut st, 0.0);
        assert!((d - 500e-6).abs() < 1e-12, "{d}");
        // The next writer at the same instant wakes one delay after the first.
        let d2 = t.delay_s(&mut st, 0.0);
        assert!(d2 > 2.0 * 500e-6 * 0.99 && d2 < 2.0 * 500e-6 * 1.01, "{d2}");
    }

    /// Near max the delay is capped at zfs_delay_max_ns.
    #[test]
    fn the_cap() {
        let t = throttle(0.9999 * 4.0 * GIB);
        let mut st = State::default();
        assert!((t.delay_s(&mut st, 0.0) - DELAY_MAX_S).abs() < 1e-12);
    }
}
