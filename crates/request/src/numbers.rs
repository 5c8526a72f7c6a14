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

/// A clap value parser for a percentage in `range`, with or without its sign (`5%` or `5`).
pub(crate) fn percent_in_range(
    range: &'static Range,
) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |text| {
        let trimmed = text.trim();
        in_range(range)(trimmed.strip_suffix('%').unwrap_or(trimmed))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percentage_takes_its_sign() {
        let afr = percent_in_range(&model::range::AFR_PCT);
        assert_eq!(afr("5%"), Ok(5.0));
        assert_eq!(afr(" 1.57 "), Ok(1.57));
        assert!(afr("150%").is_err());
        assert!(afr("5%%").unwrap_err().starts_with("not a number"));
    }
}
