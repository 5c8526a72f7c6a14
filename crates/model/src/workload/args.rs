//! Command lines as a shell splits them, and the tool that leads one.

use super::WorkloadError;
use crate::input::clip;
use crate::units::parse_size;

/// Splits `text` into words as a POSIX shell does for plain words and single or double quotes
/// (no expansions): `fio --name='a b' --bs=4k` gives `fio`, `--name=a b`, `--bs=4k`.
pub(super) fn words(text: &str) -> Result<Vec<String>, WorkloadError> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(WorkloadError("an unclosed quote in the command".into()));
    }
    if in_word {
        out.push(word);
    }
    Ok(out)
}

/// The tool a command line runs: its first word without a directory (`/usr/sbin/bonnie++`).
pub(super) fn tool(spec: &str) -> Option<&str> {
    let first = spec.split_whitespace().next()?;
    let name = first.rsplit('/').next().unwrap_or(first);
    ["bonnie++", "fio", "iozone", "dd"]
        .into_iter()
        .find(|t| *t == name)
}

/// A size with the tool's default unit for a plain number (`unit` bytes) and the binary
/// k/m/g/t suffixes tools take.
pub(super) fn size_in(text: &str, unit: u64, what: &str) -> Result<u64, WorkloadError> {
    let bad = |why: &str| WorkloadError(format!("{what} '{}': {why}", clip(text, 30)));
    let plain = text.chars().all(|c| c.is_ascii_digit());
    let bytes = if plain {
        text.parse::<u64>()
            .map_err(|_| bad("too large"))?
            .checked_mul(unit)
            .ok_or_else(|| bad("too large"))?
    } else {
        parse_size(text).map_err(|e| bad(&e.reason))?
    };
    if bytes == 0 {
        return Err(bad("must be above 0"));
    }
    Ok(bytes)
}

/// A whole number of at least 1.
pub(super) fn count(text: &str, what: &str) -> Result<u32, WorkloadError> {
    text.parse::<u32>()
        .ok()
        .filter(|n| (1..=65_536).contains(n))
        .ok_or_else(|| {
            WorkloadError(format!(
                "{what} '{}': expected a whole number from 1 to 65536",
                clip(text, 30)
            ))
        })
}

/// An option the reader does not model, refused by name.
pub(super) fn unsupported(tool: &str, option: &str) -> WorkloadError {
    WorkloadError(format!(
        "{tool}: option '{}' is not modelled",
        clip(option, 30)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_as_a_shell_splits_them() {
        assert_eq!(
            words("fio --name='a b' \"--bs=4k\"  x").unwrap(),
            ["fio", "--name=a b", "--bs=4k", "x"]
        );
        assert!(words("fio --name='a").is_err());
        assert_eq!(tool("/usr/sbin/bonnie++ -s 1g"), Some("bonnie++"));
        assert_eq!(tool("fio-randread"), None);
    }

    #[test]
    fn sizes_in_the_tools_units() {
        assert_eq!(size_in("16384", 1 << 20, "-s").unwrap(), 16 << 30);
        assert_eq!(size_in("4k", 1, "bs").unwrap(), 4096);
        assert_eq!(size_in("1g", 1024, "-s").unwrap(), 1 << 30);
        assert!(size_in("0", 1, "bs").is_err());
        assert!(size_in("x", 1, "bs").is_err());
    }
}
