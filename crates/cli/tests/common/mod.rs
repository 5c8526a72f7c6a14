//! Running the `zpoolsim` binary from the repository's top, as a person would.

#[allow(dead_code)] // only some test files check shapes or run a ZFS
pub mod shapes;
#[allow(dead_code)]
pub mod zfs;

use std::process::Command;

/// Exit code, stdout and stderr of `zpoolsim ARGS`.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The JSON `zpoolsim ARGS` prints, which must succeed.
#[allow(dead_code)] // not every test file reads JSON
pub fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("JSON")
}
