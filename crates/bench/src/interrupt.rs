//! Every signal that ends a shell session during a bench: Ctrl-C (SIGINT), Ctrl-\ (SIGQUIT),
//! SIGTERM, and SIGHUP (the terminal or the SSH session closed; fio, in a process group of
//! its own, is not sent it). Noted here by the signal handler, acted on by the bench between
//! two looks at fio (stop fio's process group, remove the scratch directory, keep what
//! finished), so nothing is left half done or running.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked us to stop, 0 while none has.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

extern "C" fn note(signal: libc::c_int) {
    CAUGHT.store(signal, Ordering::SeqCst);
}

/// The signals caught, with the names the bench's last sentence gives them.
const SIGNALS: [(libc::c_int, &str); 4] = [
    (libc::SIGINT, "Ctrl-C (SIGINT)"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP (the terminal or session closed)"),
    (libc::SIGQUIT, "SIGQUIT"),
];

/// From now on SIGINT, SIGTERM, SIGHUP and SIGQUIT are noted rather than ending the process
/// at once.
pub fn catch() {
    for (signal, _) in SIGNALS {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(
                signal,
                note as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
    }
}

/// The signal's name when one asked us to stop.
pub(crate) fn caught() -> Option<&'static str> {
    let signal = CAUGHT.load(Ordering::SeqCst);
    SIGNALS
        .iter()
        .find_map(|&(s, name)| (s == signal).then_some(name))
}
