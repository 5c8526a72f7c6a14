//! A dataset's properties that change what its data costs to store and to move: compression,
//! checksum, sync, logbias, primarycache and encryption (zfs(8) and zfsprops(7) property names
//! and values; module/zcommon/zfs_prop.c).

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The `compression` property.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Compression {
    /// Not set: the release's default (off before OpenZFS 2.2, `on` = lz4 from 2.2: include/
    /// sys/zio.h ZIO_COMPRESS_DEFAULT).
    Default,
    /// `off`: every record is stored at its full size.
    Off,
    /// `on`: lz4 where the pool has the feature (OpenZFS), lzjb before it.
    On,
    /// `lzjb`: the original Solaris compressor.
    Lzjb,
    /// `lz4`: fast, and quick to give up on data that does not compress.
    Lz4,
    /// `gzip-N`: zlib at level 1 to 9 (`gzip` alone is level 6).
    Gzip {
        /// The zlib level, 1 to 9.
        level: u8,
    },
    /// `zstd-N`: Zstandard at level 1 to 19 (`zstd` alone is level 3), OpenZFS 2.0 on.
    Zstd {
        /// The zstd level, 1 to 19.
        level: u8,
    },
}

/// The `checksum` property.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Checksum {
    /// `on` (or not set): fletcher4 (fletcher2 before pool version 20 era Solaris, 2009).
    On,
    /// No checksum: nothing is verified on read, and dedup and self-healing cannot work.
    Off,
    /// fletcher2, the weak original checksum.
    Fletcher2,
    /// fletcher4, the default: fast, with SIMD kernels.
    Fletcher4,
    /// SHA-256, the cryptographic hash dedup asks for by default.
    Sha256,
    /// SHA-512 (truncated to 256 bits), faster than SHA-256 on 64-bit CPUs without SHA extensions.
    Sha512,
    /// Skein, a cryptographic hash.
    Skein,
    /// Edon-R, a fast cryptographic hash.
    Edonr,
    /// BLAKE3, a cryptographic hash with SIMD kernels (OpenZFS 2.2 on).
    Blake3,
}

/// The `sync` property.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SyncPolicy {
    /// POSIX: only O_SYNC writes and fsync are made durable at once.
    Standard,
    /// Every write is made durable before it returns.
    Always,
    /// Nothing is: fsync returns at once.
    Disabled,
}

/// The `logbias` property: where large synchronous writes go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Logbias {
    /// Synchronous writes go whole into the ZIL on a log device; without one, those of at
    /// least zfs_immediate_write_sz go to the main vdevs (zil_write_state). The default.
    Latency,
    /// Synchronous writes go straight to the main vdevs, the ZIL holding only their block
    /// pointers (zil.c zil_write_state: WR_INDIRECT whatever their size).
    Throughput,
}

/// The `primarycache` property: what of the dataset's blocks the ARC keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PrimaryCache {
    /// Data and metadata (the default).
    All,
    /// Metadata only: every data read goes to the disks.
    Metadata,
    /// Nothing: every read goes to the disks.
    None,
}

/// The `encryption` property (zfsprops(7): `on` is aes-256-gcm from OpenZFS 0.8.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Encryption {
    /// Not encrypted (the default).
    Off,
    /// AES in Galois/Counter mode, key bits 128, 192 or 256.
    Gcm {
        /// Key length, bits.
        bits: u16,
    },
    /// AES in CCM mode, key bits 128, 192 or 256.
    Ccm {
        /// Key length, bits.
        bits: u16,
    },
}

/// Why a property value could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyError(pub String);

impl fmt::Display for PropertyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PropertyError {}

/// `gzip-6`, `zstd-19`: the level after the dash, within `range`, else `default`.
fn level(text: &str, prefix: &str, range: std::ops::RangeInclusive<u8>, default: u8) -> Option<u8> {
    match text.strip_prefix(prefix)? {
        "" => Some(default),
        rest => rest
            .strip_prefix('-')?
            .parse::<u8>()
            .ok()
            .filter(|l| range.contains(l)),
    }
}

impl FromStr for Compression {
    type Err = PropertyError;

    fn from_str(text: &str) -> Result<Self, PropertyError> {
        let t = text.trim().to_ascii_lowercase();
        let simple = match t.as_str() {
            "off" => Some(Compression::Off),
            "on" => Some(Compression::On),
            "lzjb" => Some(Compression::Lzjb),
            "lz4" => Some(Compression::Lz4),
            _ => None,
        };
        // gzip levels 1-9, default 6; zstd levels 1-19, default 3 (zfs(8)).
        simple
            .or_else(|| level(&t, "gzip", 1..=9, 6).map(|level| Compression::Gzip { level }))
            .or_else(|| level(&t, "zstd", 1..=19, 3).map(|level| Compression::Zstd { level }))
            .ok_or_else(|| {
                PropertyError(format!(
                    "compression '{}': expected off, on, lzjb, lz4, gzip[-1..9] or zstd[-1..19]",
                    crate::input::clip(text, 20)
                ))
            })
    }
}

impl FromStr for Checksum {
    type Err = PropertyError;

    fn from_str(text: &str) -> Result<Self, PropertyError> {
        Ok(match text.trim().to_ascii_lowercase().as_str() {
            "on" => Checksum::On,
            "off" => Checksum::Off,
            "fletcher2" => Checksum::Fletcher2,
            "fletcher4" => Checksum::Fletcher4,
            "sha256" => Checksum::Sha256,
            "sha512" => Checksum::Sha512,
            "skein" => Checksum::Skein,
            "edonr" => Checksum::Edonr,
            "blake3" => Checksum::Blake3,
            _ => {
                return Err(PropertyError(format!(
                    "checksum '{}': expected on, off, fletcher2, fletcher4, sha256, sha512, skein, edonr or blake3",
                    crate::input::clip(text, 20)
                )))
            }
        })
    }
}

impl FromStr for SyncPolicy {
    type Err = PropertyError;

    fn from_str(text: &str) -> Result<Self, PropertyError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "standard" => Ok(SyncPolicy::Standard),
            "always" => Ok(SyncPolicy::Always),
            "disabled" => Ok(SyncPolicy::Disabled),
            _ => Err(PropertyError(format!(
                "sync '{}': expected standard, always or disabled",
                crate::input::clip(text, 20)
            ))),
        }
    }
}

impl FromStr for Logbias {
    type Err = PropertyError;

    fn from_str(text: &str) -> Result<Self, PropertyError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "latency" => Ok(Logbias::Latency),
            "throughput" => Ok(Logbias::Throughput),
            _ => Err(PropertyError(format!(
                "logbias '{}': expected latency or throughput",
                crate::input::clip(text, 20)
            ))),
        }
    }
}

impl FromStr for PrimaryCache {
    type Err = PropertyError;

    fn from_str(text: &str) -> Result<Self, PropertyError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "all" => Ok(PrimaryCache::All),
            "metadata" => Ok(PrimaryCache::Metadata),
            "none" => Ok(PrimaryCache::None),
            _ => Err(PropertyError(format!(
                "primarycache '{}': expected all, metadata or none",
                crate::input::clip(text, 20)
            ))),
        }
    }
}

impl FromStr for Encryption {
    type Err = PropertyError;

    fn from_str(text: &str) -> Result<Self, PropertyError> {
        let t = text.trim().to_ascii_lowercase();
        let bits = |rest: &str| match rest {
            "128" => Some(128),
            "192" => Some(192),
            "256" => Some(256),
            _ => None,
        };
        let parsed = match t.as_str() {
            "off" => Some(Encryption::Off),
            "on" => Some(Encryption::Gcm { bits: 256 }),
            _ => t.strip_prefix("aes-").and_then(|rest| {
                let (b, mode) = rest.split_once('-')?;
                match mode {
                    "gcm" => bits(b).map(|bits| Encryption::Gcm { bits }),
                    "ccm" => bits(b).map(|bits| Encryption::Ccm { bits }),
                    _ => None,
                }
            }),
        };
        parsed.ok_or_else(|| {
            PropertyError(format!(
                "encryption '{}': expected off, on or aes-128|192|256-ccm|gcm",
                crate::input::clip(text, 20)
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_as_zfs_takes_them() {
        assert_eq!("lz4".parse::<Compression>().unwrap(), Compression::Lz4);
        assert_eq!(
            "gzip".parse::<Compression>().unwrap(),
            Compression::Gzip { level: 6 }
        );
        assert_eq!(
            "zstd-19".parse::<Compression>().unwrap(),
            Compression::Zstd { level: 19 }
        );
        assert!("zstd-20".parse::<Compression>().is_err());
        assert!("gzip-0".parse::<Compression>().is_err());
        assert_eq!("SHA256".parse::<Checksum>().unwrap(), Checksum::Sha256);
        assert_eq!("always".parse::<SyncPolicy>().unwrap(), SyncPolicy::Always);
        assert!("sometimes".parse::<SyncPolicy>().is_err());
        assert_eq!(
            "throughput".parse::<Logbias>().unwrap(),
            Logbias::Throughput
        );
        assert_eq!(
            "metadata".parse::<PrimaryCache>().unwrap(),
            PrimaryCache::Metadata
        );
        assert!("some".parse::<PrimaryCache>().is_err());
        assert_eq!(
            "on".parse::<Encryption>().unwrap(),
            Encryption::Gcm { bits: 256 }
        );
        assert_eq!(
            "aes-128-ccm".parse::<Encryption>().unwrap(),
            Encryption::Ccm { bits: 128 }
        );
        assert!("aes-512-gcm".parse::<Encryption>().is_err());
        assert!("aes-256-xts".parse::<Encryption>().is_err());
    }
}
