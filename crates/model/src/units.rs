//! Sizes as people write them: `750GB` (decimal, as drives are sold), `3.5TiB` (binary),
//! `128K` (ZFS's own single-letter suffixes are binary, as in `zfs set recordsize=128K`),
//! or plain bytes.

use crate::input::echo;
use std::fmt;

/// Why a size could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitError {
    /// The text as given.
    pub input: String,
    /// Why it is not a size.
    pub reason: String,
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad size '{}': {}", echo(&self.input), self.reason)
    }
}

impl std::error::Error for UnitError {}

/// 2^10 bytes.
pub const KIB: u64 = 1 << 10;
/// 2^20 bytes.
pub const MIB: u64 = 1 << 20;
/// 2^30 bytes.
pub const GIB: u64 = 1 << 30;
/// 2^40 bytes.
pub const TIB: u64 = 1 << 40;

/// The multiplier of a size suffix, matched without regard to case.
fn suffix_multiplier(suffix: &str) -> Option<u64> {
    let s = suffix.to_ascii_lowercase();
    let m = match s.as_str() {
        "" | "b" => 1,
        "k" | "kib" => KIB,
        "m" | "mib" => MIB,
        "g" | "gib" => GIB,
        "t" | "tib" => TIB,
        "p" | "pib" => TIB * KIB,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        "pb" => 1_000_000_000_000_000,
        _ => return None,
    };
    Some(m)
}

/// Reads a size in bytes. Fractions are allowed as long as the result is a whole number of bytes.
pub fn parse_size(input: &str) -> Result<u64, UnitError> {
    let err = |reason: &str| UnitError {
        input: input.to_string(),
        reason: reason.to_string(),
    };
    let text = input.trim();
    if text.starts_with('-') {
        return Err(err("a size cannot be negative"));
    }
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(split);
    let multiplier = suffix_multiplier(suffix.trim()).ok_or_else(|| {
        err("expected a number with an optional unit: B, K/KiB, M/MiB, G/GiB, T/TiB (binary) or KB, MB, GB, TB (decimal)")
    })?;
    let (whole, frac) = match number.split_once('.') {
        Some((w, f)) => (w, f),
        None => (number, ""),
    };
    if whole.is_empty() && frac.is_empty() {
        return Err(err("expected a number"));
    }
    if frac.contains('.') || frac.len() > 18 {
        return Err(err("malformed number"));
    }
    let too_big = || err("too large (over 16 EiB)");
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| too_big())?
    };
    let frac_value: u128 = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| err("malformed number"))?
    };
    let scale = 10u128.pow(frac.len() as u32);
    let numerator = whole
        .checked_mul(scale)
        .and_then(|w| w.checked_add(frac_value))
        .and_then(|n| n.checked_mul(multiplier as u128))
        .ok_or_else(too_big)?;
    if numerator % scale != 0 {
        return Err(err("not a whole number of bytes"));
    }
    u64::try_from(numerator / scale).map_err(|_| too_big())
}

/// Bytes in binary units with three significant decimals, as `zfs list` would round them.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

/// Bytes in decimal units, as drive makers and throughput figures use them.
pub fn format_decimal(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_and_binary_suffixes() {
        assert_eq!(parse_size("750GB").unwrap(), 750_000_000_000);
        assert_eq!(parse_size("4TB").unwrap(), 4_000_000_000_000);
        assert_eq!(parse_size("3.5TiB").unwrap(), 3_848_290_697_216);
        assert_eq!(parse_size("128K").unwrap(), 131_072);
        assert_eq!(parse_size("1000GiB").unwrap(), 1_073_741_824_000);
        assert_eq!(parse_size("512").unwrap(), 512);
        assert_eq!(parse_size("64 MiB").unwrap(), 67_108_864);
        assert_eq!(parse_size("1.5kb").unwrap(), 1_500);
    }

    #[test]
    fn refuses_nonsense() {
        assert!(parse_size("-4TB").unwrap_err().reason.contains("negative"));
        assert!(parse_size("4XB").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size(".").is_err());
        assert!(parse_size("1.1.1G").is_err());
        assert!(parse_size("0.3B").unwrap_err().reason.contains("whole"));
        assert!(parse_size("99999999999999999999TB").is_err());
    }

    #[test]
    fn formats() {
        assert_eq!(format_bytes(1536), "1.50 KiB");
        assert_eq!(format_bytes(12), "12 B");
        assert_eq!(format_decimal(567e6), "567.0 MB");
    }
}
