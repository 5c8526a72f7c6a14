//! Output that cannot be written is one line and exit code 2, like any other failure.

use std::process::{Command, Stdio};

#[test]
fn a_full_disk_is_one_line_and_exit_2() {
    let Some(full) = full_device() else {
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

/// /dev/full, or a device node of the same kind (char 1:7) made where a container lacks it;
/// where neither can be had the test is skipped out loud, and fails under CI.
fn full_device() -> Option<std::fs::File> {
    let open = |path: &std::path::Path| std::fs::OpenOptions::new().write(true).open(path).ok();
    if let Some(full) = open(std::path::Path::new("/dev/full")) {
        return Some(full);
    }
    let node = std::env::temp_dir().join(format!("zpoolsim-full-{}", std::process::id()));
    let _ = std::fs::remove_file(&node);
    let made = Command::new("mknod")
        .arg(&node)
        .args(["c", "1", "7"])
        .status()
        .is_ok_and(|s| s.success());
    let full = if made { open(&node) } else { None };
    let _ = std::fs::remove_file(&node);
    if full.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no /dev/full, and none could be made (mknod c 1 7 needs root): under CI this test must run"
        );
        eprintln!("SKIPPED: no /dev/full on this machine, and none could be made");
    }
    full
}
