//! Which ZFS runs the pool: the code line and its version. Space rules (metaslab sizing, slop,
//! the embedded log) and I/O behaviour (aggregation, queue depths, the write throttle, checksum
//! and parity kernels, the ARC's size) changed release by release, so the engines ask the release
//! what it does rather than assume one ZFS.
//!
//! Written in system files (`host.zfs`) and on the command line (`--zfs`) as a family and a
//! version: `openzfs-2.2`, `zol-0.6.5`, `freebsd-10.2`, `solaris-2008`, `illumos-2015`,
//! `zfs-fuse`. A bare version (`2.1`, `0.7.13`) is OpenZFS / ZFS on Linux.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A ZFS release, by the code line it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ZfsRelease {
    /// Sun's Solaris and OpenSolaris (Nevada builds) by year, 2005-2010.
    Solaris {
        /// The year of the build.
        year: u16,
    },
    /// illumos distributions (OpenIndiana, OmniOS, SmartOS) by year, 2010 on: feature flags,
    /// pool version 5000 from 2012.
    Illumos {
        /// The year of the release.
        year: u16,
    },
    /// FreeBSD's own port of the Solaris/illumos code, by FreeBSD version (7.0-12.x). FreeBSD
    /// 13 and later ship OpenZFS 2.x and are written `openzfs-2.x`, or `freebsd-13`, which reads
    /// as the OpenZFS release it shipped.
    FreeBsd {
        /// FreeBSD major version.
        major: u8,
        /// FreeBSD minor version.
        minor: u8,
    },
    /// ZFS on Linux 0.6-0.8 and OpenZFS 2.x (Linux and FreeBSD 13+), by version.
    OpenZfs {
        /// Major version (0 for ZFS on Linux).
        major: u8,
        /// Minor version.
        minor: u8,
        /// Patch level.
        patch: u8,
    },
    /// zfs-fuse 0.7 (pool version 23, the Solaris code of 2009-2010 in user space).
    ZfsFuse,
}

/// The default: the current OpenZFS release line.
pub const DEFAULT_RELEASE: ZfsRelease = ZfsRelease::OpenZfs {
    major: 2,
    minor: 4,
    patch: 0,
};

impl Default for ZfsRelease {
    fn default() -> Self {
        DEFAULT_RELEASE
    }
}

/// Why a release could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseError(pub String);

impl fmt::Display for ReleaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReleaseError {}

/// What `--zfs` and `host.zfs` take, for messages.
pub const RELEASE_FORMS: &str = "openzfs-2.2 (or 2.2, 2.1.5, zol-0.6.5, 0.7, \"ZFS on Linux\"), \
freebsd-10.2 (or \"FreeBSD 10\"), solaris-2008, illumos-2015, zfs-fuse";

/// The ZFS on Linux release a source that says only "ZoL" or "ZFS on Linux" takes: 0.7, the
/// middle of the 0.6-0.8 line (2013-2020), documented in docs/assumptions.md.
const ZOL_UNSPECIFIED: &str = "zol-0.7";

/// A release as people write it, in the canonical `family-version` form: case and spaces
/// aside ("FreeBSD 10" is freebsd-10, "OpenZFS 2.2" openzfs-2.2), "ZFS on Linux" is zol, and
/// a bare "ZoL" the line's middle release.
fn rough(text: &str) -> String {
    let mut t = text.trim().to_ascii_lowercase().replace(['_', ' '], "-");
    for long in ["zfs-on-linux", "openzfs-on-linux"] {
        if let Some(rest) = t.strip_prefix(long) {
            t = format!("zol{rest}");
        }
    }
    if t == "zol" {
        t = ZOL_UNSPECIFIED.to_string();
    }
    t
}

/// The OpenZFS release each FreeBSD from 13 on shipped (FreeBSD release notes: 13.0 OpenZFS
/// 2.0, 13.1 2.1, 13.3 2.1.14, 14.0 2.2, 14.2 2.2.6, 15.0 2.3).
fn freebsd_openzfs(major: u8, minor: u8) -> (u8, u8) {
    match (major, minor) {
        (13, 0) => (2, 0),
        (13, _) => (2, 1),
        (14, _) => (2, 2),
        _ => (2, 3),
    }
}

fn number<T: FromStr>(text: &str) -> Option<T> {
    text.parse().ok()
}

/// `major[.minor[.patch]]` as three numbers, missing parts 0; at most three parts.
fn version(text: &str) -> Option<(u8, u8, u8)> {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let at = |i: usize| parts.get(i).map_or(Some(0), |p| number::<u8>(p));
    Some((at(0)?, at(1)?, at(2)?))
}

fn openzfs(text: &str) -> Option<ZfsRelease> {
    let (major, minor, patch) = version(text)?;
    let known = (major == 0 && (6..=8).contains(&minor)) || (major == 2 && minor <= 9);
    known.then_some(ZfsRelease::OpenZfs {
        major,
        minor,
        patch,
    })
}

fn year(text: &str, from: u16, to: u16) -> Option<u16> {
    number::<u16>(text).filter(|y| (from..=to).contains(y))
}

impl FromStr for ZfsRelease {
    type Err = ReleaseError;

    fn from_str(text: &str) -> Result<ZfsRelease, ReleaseError> {
        if text.len() > 64 {
            return Err(ReleaseError(
                "a ZFS release is at most 64 characters".into(),
            ));
        }
        let lower = rough(text);
        let bad = || {
            ReleaseError(format!(
                "unknown ZFS release '{}': expected {RELEASE_FORMS}",
                crate::input::clip(text, 40)
            ))
        };
        // The names of earlier versions of the system file.
        let legacy_name = match lower.as_str() {
            "openzfs2" | "openzfs" | "modern" => Some(DEFAULT_RELEASE),
            "solaris2008" => Some(ZfsRelease::Solaris { year: 2008 }),
            "pool-v28" => Some(ZfsRelease::FreeBsd { major: 9, minor: 0 }),
            "zfs-fuse" | "zfsfuse" | "legacy" | "v23" => Some(ZfsRelease::ZfsFuse),
            "illumos" => Some(ZfsRelease::Illumos { year: 2015 }),
            _ => None,
        };
        if let Some(r) = legacy_name {
            return Ok(r);
        }
        let (family, rest) = lower.split_once('-').unwrap_or(("", lower.as_str()));
        let parsed = match family {
            "" | "openzfs" | "zol" => openzfs(rest),
            "solaris" | "opensolaris" => {
                year(rest, 2005, 2010).map(|year| ZfsRelease::Solaris { year })
            }
            "illumos" => year(rest, 2010, 2030).map(|year| ZfsRelease::Illumos { year }),
            "freebsd" => version(rest).and_then(|(major, minor, _)| match major {
                7..=30 => Some(ZfsRelease::FreeBsd { major, minor }),
                _ => None,
            }),
            _ => None,
        };
        parsed.ok_or_else(bad)
    }
}

impl fmt::Display for ZfsRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ZfsRelease::Solaris { year } => write!(f, "solaris-{year}"),
            ZfsRelease::Illumos { year } => write!(f, "illumos-{year}"),
            ZfsRelease::FreeBsd { major, minor } => write!(f, "freebsd-{major}.{minor}"),
            ZfsRelease::OpenZfs {
                major,
                minor,
                patch,
            } => {
                let family = if major == 0 { "zol" } else { "openzfs" };
                if patch == 0 {
                    write!(f, "{family}-{major}.{minor}")
                } else {
                    write!(f, "{family}-{major}.{minor}.{patch}")
                }
            }
            ZfsRelease::ZfsFuse => f.write_str("zfs-fuse"),
        }
    }
}

impl Serialize for ZfsRelease {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ZfsRelease {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl ZfsRelease {
    /// The OpenZFS version whose code this release's behaviour follows most closely, as
    /// (major, minor): the line the engines key their rules on. Solaris, illumos and FreeBSD
    /// before 13 map by the date of their code: FreeBSD 8.x (2009-2011, pool v13-v15) and
    /// Solaris of those years share the code of ZFS on Linux 0.6.0's ancestors (`(0, 5)`: before
    /// ZoL), FreeBSD 9.x (pool v28, 2012) too; FreeBSD 10.x-11.x and illumos 2013-2016 carry
    /// the 2013 write throttle and the 2014 slop change that ZoL took in 0.6.3-0.6.5; FreeBSD
    /// 12 and illumos 2017-2019 match 0.7-0.8 (FreeBSD 12.0 release notes; illumos-gate
    /// history in docs/zfs-internals.md).
    pub fn openzfs_line(&self) -> (u8, u8) {
        match *self {
            ZfsRelease::OpenZfs { major, minor, .. } => (major, minor),
            ZfsRelease::Solaris { .. } | ZfsRelease::ZfsFuse => (0, 5),
            ZfsRelease::FreeBsd { major, .. } if major <= 9 => (0, 5),
            ZfsRelease::FreeBsd { major, .. } if major <= 11 => (0, 6),
            ZfsRelease::FreeBsd { major: 12, .. } => (0, 7),
            ZfsRelease::FreeBsd { major, minor } => freebsd_openzfs(major, minor),
            ZfsRelease::Illumos { year } if year < 2013 => (0, 5),
            ZfsRelease::Illumos { year } if year < 2017 => (0, 6),
            ZfsRelease::Illumos { year } if year < 2020 => (0, 7),
            ZfsRelease::Illumos { .. } => (0, 8),
        }
    }

    /// The ZFS on Linux / OpenZFS release whose space code this release runs, as (major,
    /// minor, patch), or `None` for code older than ZFS on Linux 0.6.5's changes outside Linux
    /// (Solaris, zfs-fuse, FreeBSD up to 9, illumos before 2014: the pool-v28 era rules).
    /// FreeBSD and illumos map by the year ZFS on Linux took the same change: 0.6.4 for code of
    /// 2014 (FreeBSD 10.0-10.1), 0.6.5 (slop 1/32, large blocks, both from illumos in
    /// 2014-2015) for 2015-2016 (FreeBSD 10.2-11.x), 0.7 for 2017-2019 (FreeBSD 12), 0.8 for
    /// illumos from 2020. A pool from the year of a change may follow either side of it.
    pub fn openzfs_version(&self) -> Option<(u8, u8, u8)> {
        match *self {
            ZfsRelease::OpenZfs {
                major,
                minor,
                patch,
            } => Some((major, minor, patch)),
            ZfsRelease::Solaris { .. } | ZfsRelease::ZfsFuse => None,
            ZfsRelease::FreeBsd { major, minor } => match (major, minor) {
                (..=9, _) => None,
                (10, 0..=1) => Some((0, 6, 4)),
                (10..=11, _) => Some((0, 6, 5)),
                (12, _) => Some((0, 7, 0)),
                _ => {
                    let (major, minor) = freebsd_openzfs(major, minor);
                    Some((major, minor, 0))
                }
            },
            ZfsRelease::Illumos { year } => match year {
                ..=2013 => None,
                2014 => Some((0, 6, 4)),
                2015..=2016 => Some((0, 6, 5)),
                2017..=2019 => Some((0, 7, 0)),
                _ => Some((0, 8, 0)),
            },
        }
    }

    /// Whether the release has dRAID: OpenZFS 2.1.0 brought it (module/zfs/vdev_draid.c); the
    /// space engine's rules turn it on at the same version.
    pub fn has_draid(&self) -> bool {
        self.openzfs_version().is_some_and(|v| v >= (2, 1, 0))
    }

    /// Whether the release is at least OpenZFS `major.minor` by the line it follows.
    pub fn at_least(&self, major: u8, minor: u8) -> bool {
        self.openzfs_line() >= (major, minor)
    }

    /// The operating system family: its kernel sets the page cache, the ARC default and the
    /// cost of a system call.
    pub fn platform(&self) -> Platform {
        match *self {
            ZfsRelease::Solaris { .. } | ZfsRelease::Illumos { .. } => Platform::Solaris,
            ZfsRelease::FreeBsd { .. } => Platform::FreeBsd,
            ZfsRelease::OpenZfs { .. } => Platform::Linux,
            ZfsRelease::ZfsFuse => Platform::Fuse,
        }
    }
}

/// The kernel ZFS runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Platform {
    /// Solaris, OpenSolaris, illumos.
    Solaris,
    /// FreeBSD (its own port before 13, OpenZFS from 13).
    FreeBsd,
    /// Linux (ZFS on Linux, OpenZFS).
    Linux,
    /// zfs-fuse: ZFS in a user-space daemon behind FUSE.
    Fuse,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> ZfsRelease {
        text.parse().unwrap()
    }

    #[test]
    fn reads_every_family() {
        assert_eq!(
            r("openzfs-2.2"),
            ZfsRelease::OpenZfs {
                major: 2,
                minor: 2,
                patch: 0
            }
        );
        assert_eq!(
            r("2.1.5"),
            ZfsRelease::OpenZfs {
                major: 2,
                minor: 1,
                patch: 5
            }
        );
        assert_eq!(r("zol-0.6.5").openzfs_line(), (0, 6));
        assert_eq!(r("0.7").to_string(), "zol-0.7");
        assert_eq!(
            r("freebsd-10.2"),
            ZfsRelease::FreeBsd {
                major: 10,
                minor: 2
            }
        );
        // FreeBSD 13+ runs OpenZFS, in FreeBSD's kernel (its ARC default, raw whole disks).
        let thirteen = r("FreeBSD-13.1");
        assert_eq!(thirteen.to_string(), "freebsd-13.1");
        assert_eq!(thirteen.openzfs_line(), (2, 1));
        assert_eq!(thirteen.openzfs_version(), Some((2, 1, 0)));
        assert_eq!(thirteen.platform(), Platform::FreeBsd);
        assert_eq!(r("freebsd-14").openzfs_line(), (2, 2));
        assert_eq!(r("freebsd-12.4").openzfs_line(), (0, 7));
        assert_eq!(r("solaris-2008"), ZfsRelease::Solaris { year: 2008 });
        assert_eq!(r("illumos-2015").openzfs_line(), (0, 6));
        assert_eq!(r("zfs-fuse"), ZfsRelease::ZfsFuse);
    }

    #[test]
    fn earlier_names_still_read() {
        assert_eq!(r("openzfs2"), DEFAULT_RELEASE);
        assert_eq!(r("solaris2008"), ZfsRelease::Solaris { year: 2008 });
        assert_eq!(r("pool-v28"), ZfsRelease::FreeBsd { major: 9, minor: 0 });
        assert_eq!(r("legacy"), ZfsRelease::ZfsFuse);
    }

    #[test]
    fn rough_names_as_sources_write_them() {
        assert_eq!(
            r("FreeBSD 10"),
            ZfsRelease::FreeBsd {
                major: 10,
                minor: 0
            }
        );
        assert_eq!(r("ZoL"), r("zol-0.7"));
        assert_eq!(r("ZFS on Linux"), r("zol-0.7"));
        assert_eq!(r("ZFS on Linux 0.6.5"), r("zol-0.6.5"));
        assert_eq!(r("OpenZFS 2.2"), r("openzfs-2.2"));
        assert!("ZFS on Windows".parse::<ZfsRelease>().is_err());
        assert!("x".repeat(100).parse::<ZfsRelease>().is_err());
    }

    #[test]
    fn refuses_what_never_shipped() {
        for bad in [
            "",
            "3.0",
            "0.5",
            "openzfs-2.x",
            "solaris-2020",
            "freebsd-6",
            "1.2.3.4",
            "2..1",
        ] {
            let e = bad.parse::<ZfsRelease>().unwrap_err();
            assert!(e.0.starts_with("unknown ZFS release"), "{bad}: {e}");
        }
    }

    #[test]
    fn display_reads_back() {
        for text in [
            "openzfs-2.2",
            "openzfs-2.1.5",
            "zol-0.6.5",
            "freebsd-10.2",
            "solaris-2008",
            "illumos-2015",
            "zfs-fuse",
        ] {
            assert_eq!(r(text).to_string(), text);
            assert_eq!(r(&r(text).to_string()), r(text));
        }
    }

    #[test]
    fn space_code_by_date() {
        assert_eq!(r("2.1.5").openzfs_version(), Some((2, 1, 5)));
        assert_eq!(r("solaris-2008").openzfs_version(), None);
        assert_eq!(r("zfs-fuse").openzfs_version(), None);
        assert_eq!(r("pool-v28").openzfs_version(), None);
        assert_eq!(r("freebsd-10.1").openzfs_version(), Some((0, 6, 4)));
        assert_eq!(r("freebsd-10.2").openzfs_version(), Some((0, 6, 5)));
        assert_eq!(r("freebsd-12.1").openzfs_version(), Some((0, 7, 0)));
        assert_eq!(r("freebsd-13.1").openzfs_version(), Some((2, 1, 0)));
        assert_eq!(r("illumos-2013").openzfs_version(), None);
        assert_eq!(r("illumos-2015").openzfs_version(), Some((0, 6, 5)));
        assert_eq!(r("illumos-2021").openzfs_version(), Some((0, 8, 0)));
    }

    #[test]
    fn lines_order_by_code_age() {
        assert!(r("2.2").at_least(2, 1));
        assert!(!r("2.0").at_least(2, 1));
        assert!(r("freebsd-12.1").at_least(0, 7));
        assert!(!r("solaris-2008").at_least(0, 6));
    }
}
