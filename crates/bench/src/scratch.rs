//! The bench's scratch directory, held by a handle. Another user who can write in DIR (a 0777
//! dataset) can rename `zpoolsim-bench-PID` away mid-run and put a symlink, or a directory of
//! their own, in its place; so the directory is made by us with mode 0700, opened once with
//! O_NOFOLLOW, and every file in it is created, read and removed relative to that handle
//! (openat, unlinkat), never by a path looked up again. fio reaches the same handle through
//! /proc/PID/fd/N of this process, which the kernel resolves to the opened directory itself,
//! whatever its name has become; and a name that no longer leads to it is a run refused.

use crate::{MeasureError, Result};
use rustix::fd::{AsFd, AsRawFd, OwnedFd};
use rustix::fs::{AtFlags, Mode, OFlags};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Most bytes of one file read back (fio's JSON of one run is tens of KiB).
const MAX_READ: u64 = 16 << 20;

/// Our own directory inside DIR, open.
pub(crate) struct Scratch {
    /// DIR, where it was made, held open.
    parent: OwnedFd,
    /// Its name in DIR.
    name: String,
    /// The directory itself.
    dir: OwnedFd,
    /// Its device and inode, by which its name is checked.
    id: (u64, u64),
    /// Its path, for messages.
    path: PathBuf,
}

/// A failure of a call on `path`, as a sentence; a full pool said so.
fn failed(what: &str, path: &Path, e: impl Into<std::io::Error>) -> MeasureError {
    let e: std::io::Error = e.into();
    let why = match e.raw_os_error() {
        Some(libc::ENOSPC) => "the pool is full (No space left on device)".to_string(),
        _ => e.to_string(),
    };
    MeasureError::Failed(format!("cannot {what} {}: {why}", path.display()))
}

impl Scratch {
    /// Makes `path` (a new directory in an existing one) with mode 0700 and opens it; refused
    /// unless what was opened is the directory just made: ours, private, not a link.
    pub(crate) fn create(path: &Path) -> Result<Scratch> {
        let (Some(parent_path), Some(name)) = (path.parent(), path.file_name()) else {
            return MeasureError::refuse(format!("{}: not a directory to make", path.display()));
        };
        let name = name.to_string_lossy().into_owned();
        let open_dir = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let parent = rustix::fs::open(parent_path, open_dir, Mode::empty())
            .map_err(|e| failed("open", parent_path, e))?;
        rustix::fs::mkdirat(&parent, name.as_str(), Mode::RWXU)
            .map_err(|e| failed("create", path, e))?;
        // Between mkdirat and openat another user may have swapped the name: NOFOLLOW refuses a
        // link, the owner and mode below a directory of theirs.
        let dir = rustix::fs::openat(&parent, name.as_str(), open_dir, Mode::empty())
            .map_err(|e| failed("open", path, e))?;
        let st = rustix::fs::fstat(&dir).map_err(|e| failed("read", path, e))?;
        if st.st_uid != rustix::process::geteuid().as_raw() || st.st_mode & 0o077 != 0 {
            return MeasureError::fail(format!(
                "{} was replaced by another user's directory as it was made: nothing was run",
                path.display()
            ));
        }
        Ok(Scratch {
            parent,
            name,
            dir,
            id: (st.st_dev, st.st_ino),
            path: path.to_path_buf(),
        })
    }

    /// The directory as fio is to reach it: through this process's descriptor, so that no
    /// rename or link of its name can redirect fio. The trailing `/.` makes fio's lstat of it
    /// (options.c, `str_directory_cb`) see the directory, not /proc's link to it.
    pub(crate) fn fio_path(&self) -> PathBuf {
        PathBuf::from(format!(
            "/proc/{}/fd/{}/.",
            std::process::id(),
            self.dir.as_raw_fd()
        ))
    }

    /// Creates the file `name` in it (never one that exists, never through a link) holding `text`.
    pub(crate) fn write(&self, name: &str, text: &str) -> Result<()> {
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW;
        let fd = rustix::fs::openat(
            &self.dir,
            name,
            flags | OFlags::CLOEXEC,
            Mode::RUSR | Mode::WUSR,
        )
        .map_err(|e| failed("create", &self.path.join(name), e))?;
        std::fs::File::from(fd)
            .write_all(text.as_bytes())
            .map_err(|e| failed("write", &self.path.join(name), e))
    }

    /// The text of the file `name` in it (not through a link), bounded; None when it cannot be
    /// read.
    pub(crate) fn read(&self, name: &str) -> Option<String> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.dir, name, flags, Mode::empty()).ok()?;
        let mut text = String::new();
        std::fs::File::from(fd)
            .take(MAX_READ)
            .read_to_string(&mut text)
            .ok()?;
        Some(text)
    }

    /// Its path in DIR, for messages.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Whether its name in DIR still leads to it (not renamed away, not a link in its place).
    pub(crate) fn in_place(&self) -> bool {
        rustix::fs::statat(&self.parent, self.name.as_str(), AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|st| (st.st_dev, st.st_ino) == self.id)
    }

    /// Removes every file in it (a run's), through the handle: unlinkat removes a link, never
    /// what it points to.
    pub(crate) fn clear(&self) {
        let Ok(entries) = rustix::fs::Dir::read_from(self.dir.as_fd()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name.to_bytes() != b"." && name.to_bytes() != b".." {
                let _ = rustix::fs::unlinkat(&self.dir, name, AtFlags::empty());
            }
        }
    }
}

impl Drop for Scratch {
    /// Empties it, and removes it from DIR only while its name still leads to it: a name
    /// swapped for something else is left alone.
    fn drop(&mut self) {
        self.clear();
        if self.in_place() {
            let _ = rustix::fs::unlinkat(&self.parent, self.name.as_str(), AtFlags::REMOVEDIR);
        }
    }
}
