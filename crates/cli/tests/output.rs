//! Output that cannot be written is one line and exit code 2, like any other failure; output
//! files are only ever regular files.

mod common;

use common::scratch::{LoopDevice, Scratch};
use common::{run, skip};
use std::os::unix::fs::FileTypeExt;
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

/// Every output path (`discover -o`, `calibrate -o`, `validate -o`, `predict --plot`, `plan
/// --plot`) given a
/// loop device, /dev/null, a FIFO, a directory or a link to the device, with `--force`: each is
/// refused in one line before any work, and not a byte of the device changes. A regular file is
/// replaced whole, through a temporary file that does not stay behind.
#[test]
fn no_output_path_writes_to_a_device_a_fifo_or_a_directory() {
    let dir = Scratch::new("output");
    let image = dir.join("disk.img");
    let pattern: Vec<u8> = (0..1u32 << 20).map(|i| (i % 251) as u8).collect();
    std::fs::write(&image, &pattern).unwrap();
    let dev = match LoopDevice::attach(&image) {
        Ok(dev) => dev,
        Err(why) => return skip("output paths onto a loop device", &why),
    };
    let fifo = dir.path("fifo.svg");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let link = dir.path("link.toml");
    std::os::unix::fs::symlink(&dev.0, &link).unwrap();
    let subdir = dir.path("sub");
    std::fs::create_dir(&subdir).unwrap();
    let sweep = [
        "predict",
        "examples/modern-12x20tb-special.toml",
        "-w",
        "fio-randread:qd=8",
        "--sweep",
        "qd=1..4",
    ];
    for target in [dev.0.as_str(), "/dev/null", &fifo, &subdir, &link] {
        let commands: [Vec<&str>; 6] = [
            vec!["validate", "--refit", "-o", target, "--force"],
            vec!["discover", "-o", target, "--force"],
            vec!["calibrate", "--raw", &dev.0, "-o", target, "--force"],
            vec!["calibrate", "--raw", &dev.0, "-o", target],
            [&sweep[..], &["--plot", target, "--force"]].concat(),
            vec![
                "plan", "--disks", "6", "--disk", "4TB", "--plot", target, "--force",
            ],
        ];
        for args in commands {
            let (code, out, err) = run(&args);
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
    assert_eq!(
        std::fs::read(&dev.0).unwrap(),
        pattern,
        "the device is unchanged"
    );
    assert_eq!(std::fs::read(&image).unwrap(), pattern);
    let kind = |p: &str| std::fs::symlink_metadata(p).unwrap().file_type();
    assert!(kind(&fifo).is_fifo() && kind(&subdir).is_dir() && kind(&link).is_symlink());

    let svg = dir.path("qd.svg");
    std::fs::write(&svg, "old").unwrap();
    let (code, _, err) = run(&[&sweep[..], &["--plot", &svg, "--force"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let names: Vec<String> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
}

/// With standard output closed (`>&-`), every subcommand says so in one line and exits 2,
/// before any work.
#[test]
fn a_closed_standard_output_is_one_line_and_exit_2() {
    let system = "examples/raidz2-10x4tb.toml";
    let commands: [&[&str]; 14] = [
        &["capacity", "--layout", "raidz1-3", "--disk", "4TB"],
        &["report", system],
        &["predict", system, "-w", "dd-read"],
        &["reliability", system],
        &["plan", "--disks", "6", "--disk", "4TB"],
        &["compare", system, "--layout", "mirror-2"],
        &["catalog"],
        &["validate"],
        &["results", "--db", "/nonexistent/results.sqlite"],
        &["bench", "--compare", "--db", "/nonexistent/results.sqlite"],
        &["discover"],
        &["calibrate", "--raw", "/dev/nonexistent"],
        &["serve", "--port", "0"],
        &["--help"],
    ];
    for args in commands {
        let out = Command::new("sh")
            .args([
                "-c",
                "exec \"$0\" \"$@\" >&-",
                env!("CARGO_BIN_EXE_zpoolsim"),
            ])
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(
            err, "zpoolsim: cannot write the output: standard output is closed\n",
            "{args:?}"
        );
    }
    // Output thrown away on purpose is fine, write-only or read-write (Python's DEVNULL).
    for redirect in [">/dev/null", "1<>/dev/null"] {
        let to_null = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" \"$@\" {redirect}"))
            .arg(env!("CARGO_BIN_EXE_zpoolsim"))
            .args(["capacity", "--layout", "raidz1-3", "--disk", "4TB"])
            .output()
            .expect("runs");
        assert_eq!(to_null.status.code(), Some(0), "{redirect}");
    }
}
