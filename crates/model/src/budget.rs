//! Work budgets. Each engine's front door counts the work a request asks for (disk-lifetimes
//! of a Monte Carlo, layouts x workloads x disks of a plan, points x disks of a sweep) and
//! refuses it before starting when it passes that engine's budget: every request taken
//! finishes in seconds, and the others are told in one line what to reduce. The budgets
//! themselves are policies, set where the work is done.

use std::fmt;

/// A request past its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverBudget {
    /// What is counted, as in "disk-lifetimes (disks x trials)".
    pub work: &'static str,
    /// How much the request asked for, in units of `work`.
    pub asked: u64,
    /// The most a request may ask for.
    pub most: u64,
    /// What to reduce, and to what.
    pub reduce: String,
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} is more work than one request may take ({}): {}",
            self.asked, self.work, self.most, self.reduce
        )
    }
}

impl std::error::Error for OverBudget {}

/// `Ok` when `asked` is within `most`; else the refusal, with `reduce` saying what to change.
pub fn check(
    work: &'static str,
    asked: u64,
    most: u64,
    reduce: impl FnOnce() -> String,
) -> Result<(), OverBudget> {
    if asked <= most {
        return Ok(());
    }
    Err(OverBudget {
        work,
        asked,
        most,
        reduce: reduce(),
    })
}
