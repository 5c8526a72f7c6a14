//! Output that cannot be written is one line and exit code 2, like any other failure.

use std::process::{Command, Stdio};

#[test]
fn a_full_disk_is_one_line_and_exit_2() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("SKIPPED: no /dev/full on this machine");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .args([
            "capacity", "--layout", "raidz2-6", "--disk", "4TB", "--json",
        ])
        .stdout(Stdio::from(full))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("cannot write the output"), "{err}");
}
