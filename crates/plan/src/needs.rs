//! `--need` terms: what a layout must reach to be proposed, as
//! `read>=500MB/s,write>=300MB/s,iops>=2000,avail>=40TB,loss<=1%`.

use std::fmt;

/// A figure a need can bound. Every one but `Loss` is better higher.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Sequential read, bytes/s.
    Read,
    /// Sequential write, bytes/s.
    Write,
    /// Random reads per second.
    Iops,
    /// Usable space (`zfs list` AVAIL of the empty pool), bytes.
    Avail,
    /// Probability of losing the pool over the mission, 0-1.
    Loss,
}

impl Metric {
    /// The word used on the command line.
    pub fn word(self) -> &'static str {
        match self {
            Metric::Read => "read",
            Metric::Write => "write",
            Metric::Iops => "iops",
            Metric::Avail => "avail",
            Metric::Loss => "loss",
        }
    }

    /// Whether a larger value is better (a floor `>=`) or worse (a ceiling `<=`).
    pub fn higher_is_better(self) -> bool {
        self != Metric::Loss
    }

    fn from_word(word: &str) -> Option<Metric> {
        [
            Metric::Read,
            Metric::Write,
            Metric::Iops,
            Metric::Avail,
            Metric::Loss,
        ]
        .into_iter()
        .find(|m| m.word() == word)
    }

    /// The value as a person reads it: decimal units, as drives and rates are sold.
    pub fn format(self, value: f64) -> String {
        match self {
            Metric::Read | Metric::Write => format!("{}/s", model::units::format_decimal(value)),
            Metric::Iops => format!("{value:.0}/s"),
            Metric::Avail => model::units::format_decimal(value),
            Metric::Loss => format_probability(value),
        }
    }
}

/// A probability as a percentage with two significant digits, in one notation for every
/// magnitude a plan's column holds: from 1% up as it is (1.2%, 100.0%), below it with its power
/// of ten (3.3e-2%, 1.1e-4%, 3.1e-10%), so that a column compares by exponent and never mixes
/// 0.033% with 1.1e-4%. page.js's `probability` is the same rule.
pub fn format_probability(p: f64) -> String {
    let pct = p * 100.0;
    if pct <= 0.0 {
        return "0%".to_string();
    }
    let small = format!("{pct:.1e}");
    // 0.9996% rounds up to 1.0e0: that is 1.0%, written as the values from 1% up are.
    if pct >= 1.0 || small.ends_with("e0") {
        format!("{pct:.1}%")
    } else {
        format!("{small}%")
    }
}

/// One bound: `metric >= bound` (or `<=` for loss).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Need {
    /// What is bounded.
    pub metric: Metric,
    /// The bound, in the metric's unit.
    pub bound: f64,
}

impl Need {
    /// Whether `value` of the metric meets the bound.
    pub(crate) fn is_met(&self, value: f64) -> bool {
        if self.metric.higher_is_better() {
            value >= self.bound
        } else {
            value <= self.bound
        }
    }

    /// How far a value is from the bound, as a factor >= 1 when missed (1 when met): the
    /// bound over the value for a floor, the value over the bound for a ceiling.
    pub fn miss_factor(&self, value: f64) -> f64 {
        let factor = if self.metric.higher_is_better() {
            self.bound / value
        } else {
            value / self.bound
        };
        if factor.is_nan() {
            1.0
        } else {
            factor.max(1.0)
        }
    }
}

impl serde::Serialize for Need {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Display for Need {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = if self.metric.higher_is_better() {
            ">="
        } else {
            "<="
        };
        write!(
            f,
            "{}{op}{}",
            self.metric.word(),
            self.metric.format(self.bound)
        )
    }
}

/// Why a `--need` term was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeedError {
    /// The term as written.
    pub term: String,
    /// Why it was refused.
    pub reason: String,
}

impl fmt::Display for NeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad need '{}': {}; terms look like read>=500MB/s, write>=300MB/s, iops>=2000, avail>=40TB, loss<=1%",
            model::input::echo(&self.term),
            self.reason
        )
    }
}

impl std::error::Error for NeedError {}

/// Reads a comma-separated list of needs; an empty text needs nothing.
pub fn parse_needs(text: &str) -> Result<Vec<Need>, NeedError> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(parse_term)
        .collect()
}

fn parse_term(term: &str) -> Result<Need, NeedError> {
    let err = |reason: String| NeedError {
        term: term.to_string(),
        reason,
    };
    let (word, op, value) = ["<=", ">="]
        .iter()
        .find_map(|op| {
            term.split_once(op)
                .map(|(w, v)| (w.trim().to_ascii_lowercase(), *op, v.trim()))
        })
        .ok_or_else(|| err("expected <metric>>=<value> or loss<=<value>".to_string()))?;
    let metric = Metric::from_word(&word).ok_or_else(|| {
        err(format!(
            "unknown figure '{}' (read, write, iops, avail or loss)",
            model::input::echo(&word)
        ))
    })?;
    let expected_op = if metric.higher_is_better() {
        ">="
    } else {
        "<="
    };
    if op != expected_op {
        return Err(err(format!(
            "{word} is bounded with {expected_op} (more {word} is {})",
            if metric.higher_is_better() {
                "better"
            } else {
                "worse"
            }
        )));
    }
    let bound = match metric {
        Metric::Read | Metric::Write => parse_rate(value),
        Metric::Iops => value
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| "expected a number of I/Os per second, like 2000".to_string()),
        Metric::Avail => parse_unit_size(value),
        Metric::Loss => parse_probability(value),
    }
    .map_err(err)?;
    Ok(Need { metric, bound })
}

/// A rate such as `500MB/s` or `1.2GiB/s`, in bytes/s.
fn parse_rate(text: &str) -> Result<f64, String> {
    let size = text
        .strip_suffix("/s")
        .ok_or_else(|| "expected a rate with its unit, like 500MB/s".to_string())?;
    parse_unit_size(size)
}

/// A size that names its unit: a bare number of bytes is almost surely a slip.
fn parse_unit_size(text: &str) -> Result<f64, String> {
    if text.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(format!(
            "'{}' has no unit; write it like 40TB or 500MB/s",
            model::input::echo(text)
        ));
    }
    model::units::parse_size(text)
        .map(|b| b as f64)
        .map_err(|e| e.reason)
}

/// A probability as `1%` or a fraction `0.01`.
fn parse_probability(text: &str) -> Result<f64, String> {
    let (number, scale) = match text.strip_suffix('%') {
        Some(n) => (n.trim(), 0.01),
        None => (text, 1.0),
    };
    number
        .parse::<f64>()
        .ok()
        .map(|v| v * scale)
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| "expected a probability like 1% or 0.01".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_figure() {
        let needs =
            parse_needs("read>=500MB/s, write>=1.5GiB/s,iops>=2000,avail>=40TB,loss<=1%").unwrap();
        let bounds: Vec<(Metric, f64)> = needs.iter().map(|n| (n.metric, n.bound)).collect();
        assert_eq!(
            bounds,
            [
                (Metric::Read, 500e6),
                (Metric::Write, 1.5 * 1024.0 * 1024.0 * 1024.0),
                (Metric::Iops, 2000.0),
                (Metric::Avail, 40e12),
                (Metric::Loss, 0.01),
            ]
        );
        assert_eq!(parse_needs("loss<=0.001").unwrap()[0].bound, 0.001);
        assert!(parse_needs("").unwrap().is_empty());
        assert_eq!(needs[3].to_string(), "avail>=40.0 TB");
    }

    #[test]
    fn one_clear_error_per_bad_term() {
        for (bad, term, why) in [
            (
                "read>=500MB/s,speed>=3",
                "speed>=3",
                "unknown figure 'speed'",
            ),
            ("avail<=40TB", "avail<=40TB", "bounded with >="),
            ("loss>=1%", "loss>=1%", "bounded with <="),
            ("read>=500MB", "read>=500MB", "like 500MB/s"),
            ("avail>=40", "avail>=40", "no unit"),
            ("loss<=150%", "loss<=150%", "probability"),
            ("iops>=lots", "iops>=lots", "number of I/Os"),
            ("avail=40TB", "avail=40TB", "expected <metric>"),
        ] {
            let e = parse_needs(bad).unwrap_err();
            assert_eq!(e.term, term);
            assert!(e.reason.contains(why), "{bad}: {}", e.reason);
        }
    }

    #[test]
    fn miss_factors() {
        let avail = Need {
            metric: Metric::Avail,
            bound: 1e15,
        };
        assert_eq!(avail.miss_factor(2.5e14), 4.0);
        assert_eq!(avail.miss_factor(2e15), 1.0);
        assert!(!avail.is_met(2.5e14));
        let loss = Need {
            metric: Metric::Loss,
            bound: 0.01,
        };
        assert!((loss.miss_factor(0.05) - 5.0).abs() < 1e-12);
        assert!(loss.is_met(0.01));
        assert_eq!(format_probability(0.0123), "1.2%");
        assert_eq!(format_probability(0.99999), "100.0%");
        assert_eq!(format_probability(0.009_999_6), "1.0%");
        assert_eq!(format_probability(0.0033), "3.3e-1%");
        assert_eq!(format_probability(3.3e-4), "3.3e-2%");
        assert_eq!(format_probability(2.5e-5), "2.5e-3%");
        assert_eq!(format_probability(0.001), "1.0e-1%");
        assert_eq!(format_probability(3.14e-9), "3.1e-7%");
        assert_eq!(format_probability(0.0), "0%");
    }
}
