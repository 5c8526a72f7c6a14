//! Running the `zpoolsim` binary from the repository's top, as a person would.

#[allow(dead_code)]
pub(crate) mod benches;
#[allow(dead_code)]
pub(crate) mod browser;
#[allow(dead_code)]
pub(crate) mod postgres;
#[allow(dead_code)]
pub(crate) mod scratch;
#[allow(dead_code)]
pub(crate) mod serve;
#[allow(dead_code)] // only some test files check shapes or run a ZFS
pub(crate) mod shapes;
#[allow(dead_code)]
pub(crate) mod zfs;

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

/// Exit code, stdout and stderr of `zpoolsim ARGS`.
pub(crate) fn run(args: &[&str]) -> (i32, String, String) {
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
pub(crate) fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("JSON")
}

/// Passes when the test may skip (saying so on stderr), panics in CI.
#[allow(dead_code)] // not every test file needs something the machine may lack
pub(crate) fn skip(test: &str, why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: cannot run in CI: {why}");
    }
    // Straight to the stderr stream: the test harness captures eprintln! of passing tests.
    let _ = writeln!(std::io::stderr(), "\n*** SKIPPED: {test}: {why} ***\n");
}

/// The tool's path on $PATH.
#[allow(dead_code)]
pub(crate) fn which(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(tool))
            .find(|f| f.exists())
    })
}

/// A directory of a test's own, removed at the end even when the test fails.
#[allow(dead_code)]
pub(crate) struct Scratch(pub PathBuf);

#[allow(dead_code)]
impl Scratch {
    pub(crate) fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("zpoolsim-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub(crate) fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
