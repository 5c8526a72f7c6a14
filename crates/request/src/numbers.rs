//! The flags that take a number, each parsed and held to its range in model's one table
//! (docs/ranges.md) before any work: clap says which flag, this says what to give.

use model::range::Range;

/// A clap value parser for a number in `range`.
pub(crate) fn in_range(range: &'static Range) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |text| {
        let value: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("not a number; give {}", range.span()))?;
        range
            .check(value)
            .map_err(|_| format!("give {} ({})", range.span(), range.why))
    }
}

/// A clap value parser for a whole number in `range` (--trials).
pub(crate) fn whole_in_range(
    range: &'static Range,
) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |text| {
        let value = in_range(range)(text)?;
        if value.fract() != 0.0 {
            return Err(format!("not a whole number; give {}", range.span()));
        }
        Ok(value as u64)
    }
}
