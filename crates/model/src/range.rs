//! The range of every number a person gives: one table, listed in docs/ranges.md (a test holds
//! the two together), and one sentence for a value outside it. The bounds are policies: wide
//! enough for any real pool or disk, narrow enough that a slip of the keyboard (1e-320 years,
//! a rate of 1e-300 MB/s, a shape of 0.001) is refused instead of computed into nonsense (an
//! infinite resilver, a stripe recommended, no disk ever failing).

use std::fmt;

/// Where a number lies, inclusive at both ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// The flag (`--years`) or the file's key (`afr_pct`) it bounds.
    pub name: &'static str,
    /// Smallest value taken.
    pub min: f64,
    /// Largest value taken.
    pub max: f64,
    /// The unit, as the help text names it.
    pub unit: &'static str,
    /// Why these bounds.
    pub why: &'static str,
}

/// A value outside its range: one sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct OutOfRange {
    /// The flag or key as the user wrote it.
    pub name: String,
    /// The range it was checked against.
    pub range: Range,
    /// The value given.
    pub value: f64,
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.range;
        write!(
            f,
            "{} {} is out of range: give {} ({})",
            self.name,
            number(self.value),
            r.span(),
            r.why
        )
    }
}

impl std::error::Error for OutOfRange {}

impl Range {
    /// `0.1 to 100 years`, as the help text and the docs write it.
    pub fn span(&self) -> String {
        format!("{} to {} {}", number(self.min), number(self.max), self.unit)
            .trim_end()
            .to_string()
    }

    /// The value, when it lies in the range.
    pub fn check(&self, value: f64) -> Result<f64, OutOfRange> {
        self.check_as(self.name, value)
    }

    /// The value of `name` (a key this range covers), when it lies in the range.
    pub fn check_as(&self, name: &str, value: f64) -> Result<f64, OutOfRange> {
        if value >= self.min && value <= self.max {
            Ok(value)
        } else {
            Err(OutOfRange {
                name: name.to_string(),
                range: *self,
                value,
            })
        }
    }
}

/// A number as a person writes it: plain when it reads plainly, else in e-notation.
fn number(v: f64) -> String {
    if v != 0.0 && !(1e-4..=1e7).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// The mission a loss probability is given over (--years).
pub const YEARS: Range = Range {
    name: "--years",
    min: 0.1,
    max: 100.0,
    unit: "years",
    why: "from five weeks, longer than any rebuild, to a century",
};

/// How full the pool is (--fill), as a share.
pub const FILL: Range = Range {
    name: "--fill",
    min: 0.01,
    max: 1.0,
    unit: "of the pool (1% to 100%)",
    why: "what a rebuild moves: at least 1% of the pool",
};

/// How full the pool is when raidz expansion widens it (--grow-fill), as a share: up to 90%
/// so that every layout can still take the data it holds.
pub const GROW_FILL: Range = Range {
    name: "--grow-fill",
    min: 0.0,
    max: 0.9,
    unit: "of the pool (0% to 90%, zpool list CAP)",
    why: "an empty pool up to one nine-tenths full",
};

/// How full the pool is before a predicted workload runs (the workload's `fill=`), as a share:
/// up to 95%, short of the slop space (1/32 of the pool) that stops writers.
pub const POOL_FILL: Range = Range {
    name: "fill=",
    min: 0.0,
    max: 0.95,
    unit: "of the pool (0% to 95%, zpool list CAP)",
    why: "an empty pool up to one nearly at its slop reservation",
};

/// The share of the time the user load of a rebuild runs (--busy), as a share.
pub const BUSY: Range = Range {
    name: "--busy",
    min: 0.01,
    max: 1.0,
    unit: "of the time (1% to 100%)",
    why: "a load that runs at least 1% of the time, up to always",
};

/// The Weibull shape of disk lifetimes (--weibull).
pub const WEIBULL_SHAPE: Range = Range {
    name: "--weibull",
    min: 0.2,
    max: 5.0,
    unit: "",
    why: "1 is exponential; below, infant mortality; above, wear-out; beyond these a year's AFR says nothing of a mission",
};

/// Monte Carlo missions (--trials); 0 gives the closed form only.
pub const TRIALS: Range = Range {
    name: "--trials",
    min: 0.0,
    max: 10_000_000.0,
    unit: "missions",
    why: "0 gives the closed form only; ten million resolve a loss of one in a million",
};

/// Hours until a failed disk is replaced without a hot spare (--replacement-hours).
pub const REPLACEMENT_HOURS: Range = Range {
    name: "--replacement-hours",
    min: 0.0,
    max: 8760.0,
    unit: "hours",
    why: "at once to a year",
};

/// The price of one disk (--price, a catalog's price_usd).
pub const PRICE_USD: Range = Range {
    name: "--price",
    min: 1.0,
    max: 100_000.0,
    unit: "US dollars per disk",
    why: "a dollar to the dearest enterprise drive and well past it",
};

/// A disk's annualized failure rate (a catalog's or an inline disk's afr_pct, --afr).
pub const AFR_PCT: Range = Range {
    name: "afr_pct",
    min: 0.01,
    max: 99.0,
    unit: "% a year",
    why: "the percentage of disks failing in a year, below every disk",
};

/// A disk's mean time between failures (mtbf_hours).
pub const MTBF_HOURS: Range = Range {
    name: "mtbf_hours",
    min: 1000.0,
    max: 1e9,
    unit: "hours",
    why: "far around any datasheet's (about 2.5 million hours at most)",
};

/// Unrecoverable read errors per bit read (uer_per_bit).
pub const UER_PER_BIT: Range = Range {
    name: "uer_per_bit",
    min: 1e-20,
    max: 1e-6,
    unit: "per bit",
    why: "a probability per bit, far around what datasheets state",
};

/// A medium's or a bus's rate (seq_outer_mb_s, seq_inner_mb_s, a zone's mb_s, any *_mb_s).
pub const MB_S: Range = Range {
    name: "*_mb_s",
    min: 1.0,
    max: 1e7,
    unit: "MB/s",
    why: "far around any device, bus or memory",
};

/// A port's or a link's line rate (*gbps).
pub const GBPS: Range = Range {
    name: "*_gbps",
    min: 0.001,
    max: 1e5,
    unit: "Gb/s",
    why: "from 1 Mb/s to 100 Tb/s, above any port or link",
};

/// A seek or a latency (*_ms).
pub const MS: Range = Range {
    name: "*_ms",
    min: 0.001,
    max: 1e5,
    unit: "ms",
    why: "from 1 microsecond to 100 s, above any seek",
};

/// A solid-state disk's latency at queue depth 1 (*_us).
pub const US: Range = Range {
    name: "*_us",
    min: 0.1,
    max: 1e6,
    unit: "us",
    why: "from 0.1 microsecond to 1 s, far around any drive's latency",
};

/// Random operations a second (*_iops).
pub const IOPS: Range = Range {
    name: "*_iops",
    min: 1.0,
    max: 1e9,
    unit: "operations a second",
    why: "above any device",
};

/// A CPU's clock (ghz, boost_ghz).
pub const GHZ: Range = Range {
    name: "*ghz",
    min: 0.1,
    max: 100.0,
    unit: "GHz",
    why: "far around any CPU's clock",
};

/// A dataset's compression ratio (compression_ratio), as `zfs get compressratio` reports it.
pub const COMPRESSION_RATIO: Range = Range {
    name: "compression_ratio",
    min: 1.0,
    max: 100.0,
    unit: "",
    why: "1.0 is incompressible; zfs get compressratio never reports less, and real data stays far below 100",
};

/// Any other figure of hardware in a catalog: above 0, below a bound no hardware reaches.
pub const OTHER: Range = Range {
    name: "any other figure",
    min: 1e-9,
    max: 1e12,
    unit: "",
    why: "above 0, and far below 1e12",
};

/// Every range, in the order docs/ranges.md lists them.
pub const RANGES: [Range; 20] = [
    YEARS,
    FILL,
    GROW_FILL,
    POOL_FILL,
    BUSY,
    WEIBULL_SHAPE,
    TRIALS,
    REPLACEMENT_HOURS,
    PRICE_USD,
    AFR_PCT,
    MTBF_HOURS,
    UER_PER_BIT,
    MB_S,
    GBPS,
    MS,
    US,
    IOPS,
    GHZ,
    COMPRESSION_RATIO,
    OTHER,
];

/// The range of a catalog entry's figure, by its key.
pub fn of_key(key: &str) -> Range {
    match key {
        "afr_pct" => AFR_PCT,
        "mtbf_hours" => MTBF_HOURS,
        "uer_per_bit" => UER_PER_BIT,
        "price_usd" => PRICE_USD,
        k if k.ends_with("ghz") => GHZ,
        "compression_ratio" => COMPRESSION_RATIO,
        k if k.ends_with("_mb_s") => MB_S,
        k if k.ends_with("gbps") => GBPS,
        k if k.ends_with("_ms") => MS,
        k if k.ends_with("_us") => US,
        k if k.ends_with("_iops") => IOPS,
        _ => OTHER,
    }
}

/// A share written `80%` or `0.8`, when it lies in `range`; the caller words the refusal
/// with [`share_refusal`].
pub fn share(text: &str, range: &Range) -> Option<f64> {
    let (number, divisor) = match text.trim().strip_suffix('%') {
        Some(n) => (n, 100.0),
        None => (text.trim(), 1.0),
    };
    let value = number.trim().parse::<f64>().ok()? / divisor;
    range.check(value).ok()
}

/// What a share outside `range` is refused with: "give a share of the pool from 1% to 100%,
/// like 80% or 0.8" (the unit up to its bracket names what it is a share of).
pub fn share_refusal(range: &Range) -> String {
    let of = range.unit.split(" (").next().unwrap_or("");
    format!(
        "give a share {of} from {}% to {}%, like 80% or 0.8",
        range.min * 100.0,
        range.max * 100.0
    )
}

/// A flag's value as a number in its range: `--years 1e-320` is refused in one sentence.
pub fn flag(range: &Range, text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number", crate::input::echo(text)))?;
    range.check(value).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_outside_is_one_sentence() {
        assert_eq!(YEARS.check(5.0), Ok(5.0));
        assert_eq!(
            YEARS.check(1e-320).unwrap_err().to_string(),
            "--years 1e-320 is out of range: give 0.1 to 100 years (from five weeks, longer than any rebuild, to a century)"
        );
        assert_eq!(
            of_key("seq_outer_mb_s")
                .check_as("seq_outer_mb_s", 1e-300)
                .unwrap_err()
                .to_string(),
            "seq_outer_mb_s 1e-300 is out of range: give 1 to 10000000 MB/s (far around any device, bus or memory)"
        );
        assert!(WEIBULL_SHAPE.check(f64::NAN).is_err());
        assert!(flag(&PRICE_USD, "1e308")
            .unwrap_err()
            .contains("give 1 to 100000 US dollars"));
        assert_eq!(flag(&WEIBULL_SHAPE, "1.5"), Ok(1.5));
        assert_eq!(WEIBULL_SHAPE.span(), "0.2 to 5");
    }
}
