//! A spinner on stderr while a computation that can take seconds runs (a plan, a simulation, a
//! sweep, the validation corpus), with what it does and the time so far. indicatif draws
//! nothing when stderr is not a terminal, so pipes, files and tests see nothing of it.

use indicatif::{ProgressBar, ProgressStyle};
use std::time::Duration;

/// Runs `work` with a spinner saying `what`, cleared when it ends.
pub(crate) fn while_working<T>(what: impl Into<String>, work: impl FnOnce() -> T) -> T {
    let spinner = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        spinner.set_style(style);
    }
    spinner.set_message(what.into());
    spinner.enable_steady_tick(Duration::from_millis(120));
    let out = work();
    spinner.finish_and_clear();
    out
}
