//! Every refusal is `zpoolsim: ...` on one line (a usage line after it only where an argument
//! is missing or unknown), exit code 2, with what the user typed escaped and cut short.

mod common;

use common::run;

fn stderr_of_refusal(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}");
    assert!(err.starts_with("zpoolsim: "), "{args:?}: {err}");
    assert!(!err.contains("-- -"), "{args:?}: {err}");
    err
}

#[test]
fn command_line_errors_are_one_line_with_usage_only_where_it_helps() {
    assert_eq!(
        stderr_of_refusal(&["capacity", "--bogus"]),
        "zpoolsim: unexpected argument '--bogus' found\nusage: zpoolsim capacity [OPTIONS] [SYSTEM.toml]\n"
    );
    assert_eq!(
        stderr_of_refusal(&["reliability", "--trials", "-1"]),
        "zpoolsim: invalid value '-1' for '--trials <TRIALS>': give 0 to 10000000 missions (0 gives the closed form only; ten million resolve a loss of one in a million)\n"
    );
    assert_eq!(
        stderr_of_refusal(&["capcity"]),
        "zpoolsim: unrecognized subcommand 'capcity'; a similar subcommand exists: 'capacity'\n"
    );
    assert_eq!(
        stderr_of_refusal(&["predict"]),
        "zpoolsim: the following required arguments were not provided: --workload <WORKLOAD>\nusage: zpoolsim predict --workload <WORKLOAD> [SYSTEM]\n"
    );
    assert_eq!(
        stderr_of_refusal(&["plan", "--disks", "1\n2"]),
        "zpoolsim: invalid value '1\\n2' for '--disks <DISKS>': invalid digit found in string\n"
    );
}

#[test]
fn echoed_input_is_escaped_and_cut_short() {
    let layout = "raidz1-3\nx".repeat(10_000);
    let err = stderr_of_refusal(&["capacity", "--layout", &layout, "--disk", "1TB"]);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 600, "{} bytes: {err}", err.len());
    assert!(
        err.starts_with("zpoolsim: bad layout 'raidz1-3\\nxraidz1-3\\nx"),
        "{err}"
    );
    let size = format!("{}\n", "9".repeat(100_000));
    let err = stderr_of_refusal(&["capacity", "--layout", "mirror-2", "--disk", &size]);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
    let need = "x".repeat(100_000);
    let err = stderr_of_refusal(&["plan", "--disks", "4", "--disk", "4TB", "--need", &need]);
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
}

/// `discover` where zpool cannot reach ZFS (here a stand-in zpool that fails as zfs-fuse's does
/// without its daemon) says so in one plain line, zpool's words after it.
#[test]
fn discover_without_a_running_zfs_says_so_plainly() {
    let dir = common::Scratch::new("no-zfs");
    let zpool = dir.0.join("zpool");
    std::fs::write(
        &zpool,
        "#!/bin/sh\necho 'connect: No such file or directory' >&2\nexit 1\n",
    )
    .unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&zpool)
        .status()
        .unwrap();
    let path = format!("{}:{}", dir.0.display(), std::env::var("PATH").unwrap());
    for args in [&["discover", "tank"][..], &["discover"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
            .args(args)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "zpoolsim: no ZFS answers on this machine: zpool list failed: connect: No such file or directory\n"
        );
    }
}

/// Whether text holds a control character other than the line ends of its own lines.
fn has_raw_controls(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\n')
}

/// A user's catalog file whose vendor, model and source hold terminal escapes (a title-setting
/// OSC, a screen clear): `catalog` and `plan` print them escaped, and not one control character
/// reaches the terminal.
#[test]
fn control_characters_of_a_catalog_file_are_escaped() {
    let path = std::env::temp_dir().join(format!("zpoolsim-escapes-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        r#"
[[disk]]
id = "evil-disk"
vendor = "Acme\u001b]0;pwned\u0007"
model = "Spinner\r8"
medium = "hdd"
interface = "sata"
interface_gbps = 6.0
capacity_bytes = 8_001_563_222_016
logical_sector = 512
physical_sector = 4096
rpm = 7200
seq_outer_mb_s = 200.0
queue_depth = 32
sources = { default = "dd\u001b[2J runs" }
"#,
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let (code, out, err) = run(&["catalog", "--catalog", file, "--kind", "disk"]);
    assert_eq!(code, 0, "{err}");
    assert!(!has_raw_controls(&out), "{out:?}");
    assert!(out.contains("      source: dd\\u{1b}[2J runs\n"), "{out}");
    let plan = [
        "plan",
        "--catalog",
        file,
        "--disks",
        "4",
        "--disk",
        "evil-disk",
    ];
    let (code, out, err) = run(&plan);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(!has_raw_controls(&out), "{out:?}");
    assert!(
        out.contains("(Acme\\u{1b}]0;pwned\\u{7} Spinner\\r8, "),
        "{out}"
    );
}
