//! Issue #18: scripts/openzfs-oracle.sh on a machine without the release's tarball and
//! without a network says what is missing and where it looked, in its own words (not tar's
//! or autogen's), and `prepare` announces the releases the live test will skip, or fails
//! under CI=true. The network is taken away by a `curl` that always fails.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A directory of this test's own, removed when the test ends, also when it fails.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the script with an empty cache and no network, on release 2.1.11 only (which no local
/// mirror holds); exit code and stderr.
fn script(dir: &Path, args: &[&str], ci: bool) -> (i32, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(root.join("scripts/openzfs-oracle.sh"))
        .args(args)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("PATH", path)
        .env("CI", if ci { "true" } else { "" })
        .env("ZPOOLSIM_ORACLE_RELEASES", "2.1.11")
        .env_remove("ZPOOLSIM_OPENZFS_SRC")
        .output()
        .expect("bash runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_missing_release_is_named_and_announced() {
    let dir = std::env::temp_dir().join(format!("zpoolsim-oracle-script-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let _guard = Scratch(dir.clone());
    let curl = dir.join("bin/curl");
    std::fs::write(
        &curl,
        "#!/bin/sh\necho 'curl: (6) Could not resolve host' >&2\nexit 6\n",
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&curl).status().unwrap();

    // 2.1.11 is in no local mirror: the download is tried, and its failure is the message.
    let (code, err) = script(&dir, &["build", "2.1.11"], false);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("OpenZFS 2.1.11: zfs-linux_2.1.11.orig.tar.gz is in none of")
            && err.contains("download of http://deb.debian.org/debian/pool/contrib/z/zfs-linux/zfs-linux_2.1.11.orig.tar.gz failed (no network?"),
        "{err}"
    );
    assert!(!err.contains("tar:") && !err.contains("autogen"), "{err}");

    let (code, err) = script(&dir, &["prepare"], false);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("*** SKIPPED: the live space test will not check OpenZFS 2.1.11"),
        "{err}"
    );
    let (code, err) = script(&dir, &["prepare"], true);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "OpenZFS 2.1.11 could not be built (see above): under CI every release is checked"
        ),
        "{err}"
    );
}
