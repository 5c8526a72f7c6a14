//! Stopping work nobody waits for. A front end that may give up on an answer (the web server,
//! when its client has gone or its deadline has passed) hands the engines a [`Cancel`]; their
//! long loops (Monte Carlo trials, a plan's layouts) ask it between steps and stop with
//! [`Cancelled`]. The command line passes [`Cancel::never`], which costs a branch per step.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag shared between whoever may give up on some work and the work itself.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Option<Arc<AtomicBool>>);

/// The work was stopped before it finished: its answer was no longer wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl fmt::Display for Cancelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("stopped: the answer was no longer wanted")
    }
}

impl std::error::Error for Cancelled {}

impl Cancel {
    /// Work that always runs to its end.
    pub fn never() -> Cancel {
        Cancel(None)
    }

    /// A flag not yet raised; clones share it.
    pub fn new() -> Cancel {
        Cancel(Some(Arc::new(AtomicBool::new(false))))
    }

    /// Asks the work sharing this flag to stop at its next check.
    pub fn cancel(&self) {
        if let Some(flag) = &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// `Err(Cancelled)` once the flag is raised: called between steps of a long loop.
    pub fn check(&self) -> Result<(), Cancelled> {
        match &self.0 {
            Some(flag) if flag.load(Ordering::Relaxed) => Err(Cancelled),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag_and_never_is_never_raised() {
        let cancel = Cancel::new();
        let work = cancel.clone();
        assert_eq!(work.check(), Ok(()));
        cancel.cancel();
        assert_eq!(work.check(), Err(Cancelled));
        let never = Cancel::never();
        never.cancel();
        assert_eq!(never.check(), Ok(()));
    }
}
