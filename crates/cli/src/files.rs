//! The user's files: system and workload files read with their names in every error, and
//! output files that are never overwritten without `--force` and are only ever regular files.

use crate::error::{CliError, CliResult};
use model::input::{check_size, echo, read_bounded};
use model::{Catalog, System, Workload};
use rustix::fs::{self, AtFlags, FileType, Mode, OFlags, RenameFlags};
use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// The catalog of this run: the embedded one with the user's `--catalog` files merged over it.
static CATALOG: OnceLock<Catalog> = OnceLock::new();

/// The embedded catalog with each user file's entries added (or replacing those of the same id).
pub(crate) fn merged_catalog(files: &[String]) -> Result<Catalog, CliError> {
    let mut catalog = Catalog::embedded().clone();
    for file in files {
        catalog.merge_file(&read(Path::new(file))?, &name(Path::new(file)))?;
    }
    Ok(catalog)
}

/// Makes the user's catalog files part of this run's catalog (called once, before any command).
pub(crate) fn use_catalog_files(files: &[String]) -> CliResult {
    if !files.is_empty() {
        let _ = CATALOG.set(merged_catalog(files)?);
    }
    Ok(())
}

/// The catalog system files and `--disk` ids are resolved against.
pub(crate) fn catalog() -> &'static Catalog {
    CATALOG.get().unwrap_or_else(Catalog::embedded)
}

/// Reads a file the user named (`-`: standard input, once), saying which one could not be
/// read. Only a regular file is read, and only when it is within `MAX_INPUT_BYTES`: a device
/// (/dev/zero), a FIFO or a directory is refused before any byte is read, and the file is
/// opened without blocking so a FIFO with no writer cannot hang the open either.
pub(crate) fn read(path: &Path) -> Result<String, CliError> {
    let cannot =
        |why: &dyn std::fmt::Display| CliError(format!("cannot read {}: {why}", name(path)));
    if path == Path::new(STDIN) {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(cannot(
                &"standard input is read once: give '-' for one input only",
            ));
        }
        return read_bounded(std::io::stdin().lock()).map_err(|e| cannot(&e));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| cannot(&e))?;
    let meta = file.metadata().map_err(|e| cannot(&e))?;
    if !meta.is_file() {
        return Err(cannot(&format!(
            "not a regular file (a {}): give a file, or '-' for standard input",
            file_kind(kind_of_mode(meta.mode()))
        )));
    }
    check_size(meta.len()).map_err(|e| cannot(&e))?;
    read_bounded(file).map_err(|e| cannot(&e))
}

/// The name that stands for standard input.
const STDIN: &str = "-";

/// Whether standard input was read already: it can be read only once.
static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

/// A path as messages name it: `stdin` for `-`, else the path with control characters escaped
/// and cut short.
pub(crate) fn name(path: &Path) -> String {
    if path == Path::new(STDIN) {
        return "stdin".to_string();
    }
    echo(&path.display().to_string())
}

/// What a file that is not a regular file is, in the words of `ls -l`'s first letter.
fn file_kind(kind: FileType) -> &'static str {
    match kind {
        FileType::Directory => "directory",
        FileType::CharacterDevice => "character device",
        FileType::BlockDevice => "block device",
        FileType::Fifo => "FIFO",
        FileType::Socket => "socket",
        FileType::Symlink => "symbolic link",
        _ => "special file",
    }
}

/// A file's kind from its `st_mode`.
fn kind_of_mode(mode: u32) -> FileType {
    FileType::from_raw_mode(mode as _)
}

/// Reads and resolves a system file against the embedded catalog.
pub(crate) fn load_system(path: &Path) -> Result<System, CliError> {
    let text = read(path)?;
    Ok(model::system_file::parse(&text, &name(path), catalog())?)
}

/// Every phase a workload spec or file names (a benchmark's command line runs several).
pub(crate) fn load_phases(spec: &str) -> Result<Vec<Workload>, CliError> {
    if spec.ends_with(".toml") {
        let text = read(Path::new(spec))?;
        return model::workload::phases_from_toml(&text)
            .map_err(|e| CliError(format!("{}: {e}", name(Path::new(spec)))));
    }
    Ok(model::workload::parse_phases(spec)?)
}

/// Prints a result as the JSON document `--json` promises: the serialized result, pretty.
pub(crate) fn print_json<T: serde::Serialize>(value: &T) -> CliResult {
    print!("{}", request::to_json(value)?);
    Ok(())
}

/// A request's named inputs on the command line: files by path, the run's catalog.
pub(crate) struct Files;

impl request::Inputs for Files {
    fn catalog(&self) -> &Catalog {
        catalog()
    }

    fn system(&self, path: &str) -> Result<System, CliError> {
        load_system(Path::new(path))
    }

    fn phases(&self, spec: &str) -> Result<Vec<Workload>, CliError> {
        load_phases(spec)
    }
}

/// Where to draw a chart, and whether an existing file may be replaced.
#[derive(clap::Args)]
pub(crate) struct PlotTo {
    /// Draw the chart into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
    /// Replace the --plot file if it exists (a regular file only: never a device, a FIFO or a link).
    #[arg(long)]
    pub force: bool,
}

impl PlotTo {
    /// The file to draw into, refused before any work if it exists and `--force` is not given.
    pub(crate) fn file(&self) -> Result<Option<&str>, CliError> {
        match &self.plot {
            Some(file) => {
                refuse_overwrite(file, self.force)?;
                Ok(Some(file))
            }
            None => Ok(None),
        }
    }
}

/// Where to write a command's file instead of printing it (discover, calibrate).
#[derive(clap::Args)]
pub(crate) struct WriteTo {
    /// Write it to this file instead of printing it.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
    /// Replace the -o file if it exists (a regular file only: never a device, a FIFO or a link).
    #[arg(long)]
    pub force: bool,
}

impl WriteTo {
    /// The file to write, refused before any work if it exists and `--force` is not given.
    pub(crate) fn file(&self) -> Result<Option<&str>, CliError> {
        if let Some(file) = &self.output {
            refuse_overwrite(file, self.force)?;
        }
        Ok(self.output.as_deref())
    }
}

/// Refuses, before any work, an output path that is not a regular file (a block or character
/// device, a FIFO, a socket, a directory, or a symbolic link to anything), with or without
/// `--force`; and an existing file unless the user said `--force`. `write` checks again.
fn refuse_overwrite(file: &str, force: bool) -> CliResult {
    match std::fs::symlink_metadata(file) {
        Ok(meta) => existing(file, kind_of_mode(meta.mode()), force),
        Err(_) => Ok(()),
    }
}

/// Whether the file at an output path may be replaced: only a regular file, only with `--force`.
fn existing(file: &str, kind: FileType, force: bool) -> CliResult {
    match kind {
        FileType::RegularFile if force => Ok(()),
        FileType::RegularFile => Err(CliError(format!(
            "{} exists; give --force to overwrite it",
            echo(file)
        ))),
        other => Err(CliError(format!(
            "cannot write {}: a {}, not a regular file (zpoolsim writes only regular files, even with --force)",
            echo(file),
            file_kind(other)
        ))),
    }
}

/// Writes an output file (after `refuse_overwrite` said it may) into a new temporary file in
/// the target's directory, renamed over the path: a reader never sees half a file. The
/// directory is opened once and everything after goes through that handle, and nothing is
/// opened through a link: a link or a file planted at the path since the check is refused, not
/// followed (`O_NOFOLLOW`, `O_EXCL`, `RENAME_NOREPLACE` without `--force`); with `--force`
/// only a regular file is replaced, the rename taking the path itself, never a link's target.
/// The directory is made when missing (`out/` of the README).
pub(crate) fn write(file: &str, force: bool, contents: &str) -> CliResult {
    let cannot = |e: std::io::Error| CliError(format!("cannot write {}: {e}", echo(file)));
    let (dir, base) = dir_and_name(file)?;
    std::fs::create_dir_all(&dir).map_err(cannot)?;
    let dir = fs::open(
        &dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| cannot(e.into()))?;
    let before = match fs::statat(&dir, &base, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => Some(st),
        Err(rustix::io::Errno::NOENT) => None,
        Err(e) => return Err(cannot(e.into())),
    };
    if let Some(st) = &before {
        existing(file, kind_of_mode(st.st_mode), force)?;
    }
    let temp = write_temp(&dir, &base, contents, before.as_ref()).map_err(cannot)?;
    let placed = if before.is_some() {
        fs::renameat(&dir, &temp, &dir, &base)
    } else {
        fs::renameat_with(&dir, &temp, &dir, &base, RenameFlags::NOREPLACE)
    };
    if placed.is_err() {
        let _ = fs::unlinkat(&dir, &temp, AtFlags::empty());
    }
    match placed {
        // Appeared since the check (a file or a link planted meanwhile): refused as it would
        // have been then.
        Err(rustix::io::Errno::EXIST) => existing(file, planted_kind(&dir, &base), false),
        other => other.map_err(|e| cannot(e.into())),
    }
}

/// The kind of what now sits at a name in the directory (a link is not followed).
fn planted_kind(dir: &OwnedFd, base: &OsStr) -> FileType {
    fs::statat(dir, base, AtFlags::SYMLINK_NOFOLLOW)
        .map_or(FileType::Unknown, |st| kind_of_mode(st.st_mode))
}

/// The directory an output path is in (`.` for a bare name) and its last component, which
/// must name a file (not `..`, not a path ending in `/`).
fn dir_and_name(file: &str) -> Result<(std::path::PathBuf, std::ffi::OsString), CliError> {
    let path = Path::new(file);
    let base = path
        .file_name()
        .filter(|_| !file.ends_with('/'))
        .ok_or_else(|| {
            CliError(format!(
                "cannot write {}: give a file name, not a directory",
                echo(file)
            ))
        })?;
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => dir.to_path_buf(),
        None => ".".into(),
    };
    Ok((dir, base.to_os_string()))
}

/// A new file beside the target (`O_CREAT|O_EXCL|O_NOFOLLOW`: never an existing file, never
/// through a link) holding the contents, on disk before it is renamed into place, with the
/// permissions of the file it replaces; its name.
fn write_temp(
    dir: &OwnedFd,
    base: &OsStr,
    contents: &str,
    replaces: Option<&fs::Stat>,
) -> std::io::Result<std::ffi::OsString> {
    use std::io::Write;
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut attempt = 0u32;
    let (name, fd) = loop {
        let mut name = std::ffi::OsString::from(".");
        name.push(base);
        name.push(format!(".zpoolsim-{}-{attempt}.tmp", std::process::id()));
        match fs::openat(dir, &name, flags, Mode::from_raw_mode(0o666)) {
            Ok(fd) => break (name, fd),
            // Someone else's file of that name (left behind, or planted): another name.
            Err(rustix::io::Errno::EXIST) if attempt < 100 => attempt += 1,
            Err(e) => return Err(e.into()),
        }
    };
    let mut f = std::fs::File::from(fd);
    let written = f
        .write_all(contents.as_bytes())
        .and_then(|()| match replaces {
            Some(st) => Ok(fs::fchmod(&f, Mode::from_raw_mode(st.st_mode & 0o7777))?),
            None => Ok(()),
        })
        .and_then(|()| f.sync_all());
    if let Err(e) = written {
        let _ = fs::unlinkat(dir, &name, AtFlags::empty());
        return Err(e);
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory of this test's own.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("zpoolsim-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The race of the report: the path is checked (absent, or a regular file with --force),
    /// then a link to someone else's file is planted while the run works. The write refuses it
    /// in one line, and neither the link nor the file it names changes.
    #[test]
    fn a_link_planted_between_check_and_write_is_refused() {
        let dir = scratch("planted");
        let victim = dir.join("victim");
        std::fs::write(&victim, "root's file").unwrap();
        for force in [false, true] {
            let out = dir.join(format!("chart-{force}.svg"));
            let file = out.to_str().unwrap();
            if force {
                std::fs::write(&out, "old chart").unwrap();
            }
            refuse_overwrite(file, force).expect("the check passes");
            let _ = std::fs::remove_file(&out);
            std::os::unix::fs::symlink(&victim, &out).unwrap();
            let err = write(file, force, "<svg/>").expect_err("a planted link is refused");
            assert!(
                err.0.contains("a symbolic link, not a regular file"),
                "{}",
                err.0
            );
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "root's file");
            assert!(std::fs::symlink_metadata(&out).unwrap().is_symlink());
        }
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 3, "no temporary file stays behind: {names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A regular file that appears between the check and the write is not replaced without
    /// --force (the rename does not replace what is there); with --force a regular file is
    /// replaced, keeping its permissions.
    #[test]
    fn only_force_replaces_and_only_a_regular_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("force");
        let out = dir.join("system.toml");
        let file = out.to_str().unwrap();
        refuse_overwrite(file, false).expect("absent");
        std::fs::write(&out, "theirs").unwrap();
        let err = write(file, false, "ours").expect_err("appeared meanwhile");
        assert!(
            err.0.ends_with("exists; give --force to overwrite it"),
            "{}",
            err.0
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "theirs");
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(file, true, "ours").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "ours");
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let new = dir.join("sub/new.svg");
        write(new.to_str().unwrap(), false, "made").unwrap();
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "made");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
