//! Which machine a bench ran on: its hostname and /etc/machine-id (systemd's stable id of an
//! installation, which outlives a rename). `ZPOOLSIM_HOST` and `ZPOOLSIM_MACHINE_ID` stand in
//! for both, so that tests (and a machine without a machine-id) can say who they are.

use serde::{Deserialize, Serialize};
use std::io::Read;

/// Which machine a bench ran on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Host {
    /// The hostname (or `ZPOOLSIM_HOST`).
    pub name: String,
    /// /etc/machine-id (or /var/lib/dbus/machine-id), empty where the machine has none.
    pub machine_id: String,
}

/// The first line of a small file (its first 4 KiB), trimmed.
fn first_line(path: &str) -> Option<String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    text.lines()
        .next()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
}

fn setting(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// This machine, or what the environment says it is.
pub fn this() -> Host {
    Host {
        name: setting("ZPOOLSIM_HOST")
            .or_else(|| first_line("/proc/sys/kernel/hostname"))
            .or_else(|| first_line("/etc/hostname"))
            .unwrap_or_else(|| "localhost".into()),
        machine_id: setting("ZPOOLSIM_MACHINE_ID")
            .or_else(|| first_line("/etc/machine-id"))
            .or_else(|| first_line("/var/lib/dbus/machine-id"))
            .unwrap_or_default(),
    }
}
