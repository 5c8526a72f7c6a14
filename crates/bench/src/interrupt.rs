//! Ctrl-C (SIGINT) and SIGTERM during a bench: noted here by the signal handler, acted on by
//! the bench between two looks at fio (stop fio's process group, remove the scratch
//! directory, keep what finished), so nothing is left half done.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked us to stop, 0 while none has.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

extern "C" fn note(signal: libc::c_int) {
    CAUGHT.store(signal, Ordering::SeqCst);
}

/// From now on SIGINT and SIGTERM are noted rather than ending the process at once.
pub fn catch() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
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
pub fn caught() -> Option<&'static str> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        libc::SIGINT => Some("Ctrl-C (SIGINT)"),
        _ => Some("SIGTERM"),
    }
}
