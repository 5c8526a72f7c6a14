//! Bounds on the text a user hands in, shared by every front end (the CLI's files and standard
//! input, a web request's body): a size refused before it is read, and nothing read past it.
//! A system file, a catalog or a workload of a few hundred kilobytes is already a large one;
//! 16 MiB leaves room for generated files while keeping parsing under a second or two and its
//! memory under a few hundred megabytes. A policy, not a fact.

use std::fmt;
use std::io::Read;

/// The most bytes one input may hold (16 MiB).
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// Why an input was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// More than [`MAX_INPUT_BYTES`]; `bytes` is the size when it is known before reading.
    TooLarge {
        /// The size, when known before reading.
        bytes: Option<u64>,
    },
    /// Not UTF-8 text.
    NotText,
    /// The reader failed.
    Read(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = MAX_INPUT_BYTES >> 20;
        match self {
            InputError::TooLarge { bytes: Some(b) } => {
                write!(f, "{b} bytes: an input is at most {limit} MiB")
            }
            InputError::TooLarge { bytes: None } => {
                write!(f, "more than {limit} MiB: an input is at most {limit} MiB")
            }
            InputError::NotText => f.write_str("not UTF-8 text"),
            InputError::Read(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for InputError {}

/// Refuses a size known before reading (a file's length, a request's Content-Length).
pub fn check_size(bytes: u64) -> Result<(), InputError> {
    if bytes > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge { bytes: Some(bytes) });
    }
    Ok(())
}

/// All of `reader` as text, reading at most one byte past the bound to know it was passed.
pub fn read_bounded(reader: impl Read) -> Result<String, InputError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Read(e.to_string()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge { bytes: None });
    }
    String::from_utf8(bytes).map_err(|_| InputError::NotText)
}

/// Characters of user text a message repeats: enough for any layout, size or workload a person
/// types, short enough that a pasted file does not flood the terminal. A policy.
pub const ECHO_CHARS: usize = 80;

/// User text echoed in a message: at most `ECHO_CHARS` characters, control characters (a
/// newline that would break the one-line message) escaped, an ellipsis where it was cut.
pub fn echo(text: &str) -> String {
    clip(text, ECHO_CHARS)
}

/// User input echoed in a message: at most `max` characters, control characters (a newline
/// would break the one-line message) escaped, and an ellipsis where it was cut.
pub fn clip(text: &str, max: usize) -> String {
    let cut = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    let mut out = escape_controls(&text[..cut]);
    if cut < text.len() {
        out.push('…');
    }
    out
}

/// Text with its control characters escaped (`\n`, `\t`, `\u{1b}`): a message stays one line.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_past_the_bound_is_refused_after_one_byte_more() {
        let at_bound = std::io::repeat(b'a').take(MAX_INPUT_BYTES);
        assert_eq!(
            read_bounded(at_bound).unwrap().len() as u64,
            MAX_INPUT_BYTES
        );
        // An endless reader (what /dev/zero is) ends one byte past the bound.
        let endless = std::io::repeat(0);
        assert_eq!(
            read_bounded(endless).unwrap_err().to_string(),
            "more than 16 MiB: an input is at most 16 MiB"
        );
        assert_eq!(read_bounded(&[0xff, 0xfe][..]), Err(InputError::NotText));
        assert!(check_size(MAX_INPUT_BYTES).is_ok());
        assert_eq!(
            check_size(50_000_000).unwrap_err().to_string(),
            "50000000 bytes: an input is at most 16 MiB"
        );
    }

    #[test]
    fn echoed_text_is_one_short_line() {
        assert_eq!(echo("raidz1-3\nmirror"), "raidz1-3\\nmirror");
        assert_eq!(echo("a\nb\tc"), "a\\nb\\tc");
        let long = "x".repeat(100_000);
        assert_eq!(echo(&long), format!("{}…", "x".repeat(80)));
    }
}
