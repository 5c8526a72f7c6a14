//! The user's files: system and workload files read with their names in every error, and
//! output files that are never overwritten without `--force` and are only ever regular files.

use crate::error::{CliError, CliResult};
use model::input::{check_size, echo, read_bounded};
use model::{Catalog, System, Workload};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// The catalog of this run: the embedded one with the user's `--catalog` files merged over it.
static CATALOG: OnceLock<Catalog> = OnceLock::new();

/// The embedded catalog with each user file's entries added (or replacing those of the same id).
pub fn merged_catalog(files: &[String]) -> Result<Catalog, CliError> {
    let mut catalog = Catalog::embedded().clone();
    for file in files {
        catalog.merge_file(&read(Path::new(file))?, &name(Path::new(file)))?;
    }
    Ok(catalog)
}

/// Makes the user's catalog files part of this run's catalog (called once, before any command).
pub fn use_catalog_files(files: &[String]) -> CliResult {
    if !files.is_empty() {
        let _ = CATALOG.set(merged_catalog(files)?);
    }
    Ok(())
}

/// The catalog system files and `--disk` ids are resolved against.
pub fn catalog() -> &'static Catalog {
    CATALOG.get().unwrap_or_else(Catalog::embedded)
}

/// Reads a file the user named (`-`: standard input, once), saying which one could not be
/// read. Only a regular file is read, and only when it is within `MAX_INPUT_BYTES`: a device
/// (/dev/zero), a FIFO or a directory is refused before any byte is read, and the file is
/// opened without blocking so a FIFO with no writer cannot hang the open either.
pub fn read(path: &Path) -> Result<String, CliError> {
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
            file_kind(&meta.file_type())
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
pub fn name(path: &Path) -> String {
    if path == Path::new(STDIN) {
        return "stdin".to_string();
    }
    echo(&path.display().to_string())
}

/// What a file that is not a regular file is, in the words of `ls -l`'s first letter.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "directory"
    } else if kind.is_char_device() {
        "character device"
    } else if kind.is_block_device() {
        "block device"
    } else if kind.is_fifo() {
        "FIFO"
    } else if kind.is_socket() {
        "socket"
    } else {
        "special file"
    }
}

/// Reads and resolves a system file against the embedded catalog.
pub fn load_system(path: &Path) -> Result<System, CliError> {
    let text = read(path)?;
    Ok(model::system_file::parse(&text, &name(path), catalog())?)
}

/// Every phase a workload spec or file names (a benchmark's command line runs several).
pub fn load_phases(spec: &str) -> Result<Vec<Workload>, CliError> {
    if spec.ends_with(".toml") {
        let text = read(Path::new(spec))?;
        return model::workload::phases_from_toml(&text)
            .map_err(|e| CliError(format!("{}: {e}", name(Path::new(spec)))));
    }
    Ok(model::workload::parse_phases(spec)?)
}

/// Prints a result as the JSON document `--json` promises: the serialized result, pretty.
pub fn print_json<T: serde::Serialize>(value: &T) -> CliResult {
    print!("{}", request::to_json(value)?);
    Ok(())
}

/// A request's named inputs on the command line: files by path, the run's catalog.
pub struct Files;

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
pub struct PlotTo {
    /// Draw the chart into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
    /// Replace the --plot file if it exists (a regular file only: never a device or a FIFO).
    #[arg(long)]
    pub force: bool,
}

impl PlotTo {
    /// The file to draw into, refused before any work if it exists and `--force` is not given.
    pub fn file(&self) -> Result<Option<&str>, CliError> {
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
pub struct WriteTo {
    /// Write it to this file instead of printing it.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
    /// Replace the -o file if it exists (a regular file only: never a device or a FIFO).
    #[arg(long)]
    pub force: bool,
}

impl WriteTo {
    /// The file to write, refused before any work if it exists and `--force` is not given.
    pub fn file(&self) -> Result<Option<&str>, CliError> {
        if let Some(file) = &self.output {
            refuse_overwrite(file, self.force)?;
        }
        Ok(self.output.as_deref())
    }
}

/// Refuses, before any work, an output path that is not a regular file (a block or character
/// device, a FIFO, a socket, a directory, or a link to one), with or without `--force`; and an
/// existing file unless the user said `--force`.
fn refuse_overwrite(file: &str, force: bool) -> CliResult {
    match std::fs::metadata(file) {
        Ok(meta) if !meta.is_file() => Err(not_regular(file, &meta)),
        Ok(_) if !force => Err(CliError(format!(
            "{} exists; give --force to overwrite it",
            echo(file)
        ))),
        _ => Ok(()),
    }
}

fn not_regular(file: &str, meta: &std::fs::Metadata) -> CliError {
    CliError(format!(
        "cannot write {}: a {}, not a regular file (zpoolsim writes only regular files, even with --force)",
        echo(file),
        file_kind(&meta.file_type())
    ))
}

/// Writes an output file (after `refuse_overwrite` said it may): into a new temporary file in
/// the same directory, renamed over the path, so a reader never sees half a file and no device
/// or FIFO is ever opened for writing. A link to a regular file is followed (the file it names
/// is replaced, the link kept); the directory is made when missing (`out/` of the README).
pub fn write(file: &str, contents: &str) -> CliResult {
    let cannot = |e: std::io::Error| CliError(format!("cannot write {}: {e}", echo(file)));
    let target = std::fs::canonicalize(file).unwrap_or_else(|_| file.into());
    let existing = std::fs::metadata(&target).ok();
    if let Some(meta) = existing.as_ref().filter(|m| !m.is_file()) {
        return Err(not_regular(file, meta));
    }
    let dir = match target.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(cannot)?;
            dir.to_path_buf()
        }
        None => ".".into(),
    };
    let base = target
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    let temp = dir.join(format!(".{base}.zpoolsim-{}.tmp", std::process::id()));
    let written = write_new(&temp, contents, existing.as_ref())
        .and_then(|()| std::fs::rename(&temp, &target));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written.map_err(cannot)
}

/// A new file (never an existing one: `create_new`) with the contents, on disk before it is
/// renamed into place, with the permissions of the file it replaces.
fn write_new(
    temp: &Path,
    contents: &str,
    replaces: Option<&std::fs::Metadata>,
) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(temp)?;
    f.write_all(contents.as_bytes())?;
    if let Some(meta) = replaces {
        f.set_permissions(meta.permissions())?;
    }
    f.sync_all()
}
