//! What the tools printed, read: pure functions over text (or a label's bytes), no IO and no
//! database, so each is tested on captured outputs of real machines (tests/fixtures/README.md
//! says where each comes from) and fuzzed by zpoolsim-fuzz.
//!
//! One module per tool or file, named after it: `lsblk`, `sysfs`, `smartctl`, `lspci`,
//! `cpuinfo` (/proc/cpuinfo and meminfo), `release` (the ZFS release the module reports),
//! `zpool_status`, `zpool_list`, `zfs_get`, `mountinfo`, `iostat` (`zpool iostat`),
//! `diskstats`, `fio_json` and `zfs_label` (the bytes where a label may be); `utc` is the one
//! time format the records keep. Every failure is one sentence, an [`Error`].

pub mod cpuinfo;
pub mod diskstats;
pub mod fio_json;
pub mod iostat;
pub mod lsblk;
pub mod lspci;
pub mod mountinfo;
pub mod release;
pub mod smartctl;
pub mod sysfs;
#[cfg(test)]
mod tests;
mod utc;
pub mod zfs_get;
pub mod zfs_label;
pub mod zpool_list;
pub mod zpool_status;

pub use utc::utc;

use std::fmt;

/// What a tool printed cannot be read: one sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Every parser fails with one sentence ([`Error`]).
pub type Result<T> = std::result::Result<T, Error>;

/// A failure, from a sentence.
pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(Error(message.into()))
}
