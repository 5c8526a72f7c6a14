//! Errors in a TOML file handed in (a system file or a user catalog file), located at the line
//! and column the reader has to fix.

use std::fmt;
use std::ops::Range;

/// What was wrong and where: `FILE:LINE:COL: what was expected`, on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file as the user named it.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counting characters, not bytes.
    pub column: usize,
    /// What was expected there, one sentence.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for FileError {}

/// The file being read, to turn byte spans into lines and columns.
#[derive(Clone, Copy)]
pub(crate) struct Source<'a> {
    pub text: &'a str,
    pub name: &'a str,
}

impl Source<'_> {
    /// An error at the start of a byte span.
    pub(crate) fn error(&self, span: Range<usize>, message: impl Into<String>) -> FileError {
        let start = floor_char_boundary(self.text, span.start.min(self.text.len()));
        let before = &self.text[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        FileError {
            file: self.name.to_string(),
            line,
            column,
            message: one_line(&message.into()),
        }
    }

    /// An error about `key` of the table at `span`: at the key where the table writes it
    /// (`sources.rpm`: the `rpm` written after `sources`), else at the table.
    pub(crate) fn key_error(
        &self,
        span: Range<usize>,
        key: Option<&str>,
        message: impl Into<String>,
    ) -> FileError {
        let at = key.and_then(|k| self.find_key(span.clone(), k));
        self.error(at.map_or(span, |i| i..i), message)
    }

    /// Where `key` (a dotted path) is written as `key =` inside `span`; a `[[table]]`'s span is
    /// its header, so its body runs on to the next header.
    fn find_key(&self, span: Range<usize>, key: &str) -> Option<usize> {
        let mut end = span.end.min(self.text.len());
        if self.text.get(span.start..)?.starts_with('[') {
            end = self.text[end..]
                .find("\n[")
                .map_or(self.text.len(), |i| end + i);
        }
        let mut from = span.start;
        for part in key.split('.') {
            let body = self.text.get(from..end)?;
            let at = body.match_indices(part).map(|(i, _)| i).find(|&i| {
                let before = body[..i].chars().next_back();
                let after = body[i + part.len()..].trim_start_matches([' ', '\t']);
                before.is_none_or(|c| c.is_whitespace() || "{,".contains(c))
                    && after.starts_with('=')
            })?;
            from += at;
        }
        Some(from)
    }

    /// A parse or type error from the toml crate, at its span (or the file's start).
    pub(crate) fn toml_error(&self, e: &toml::de::Error) -> FileError {
        self.error(e.span().unwrap_or(0..0), e.message())
    }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Messages stay on one line whatever the toml crate or a nested error produced.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_and_count_characters() {
        let src = Source {
            text: "a = 1\nбв = 2\n",
            name: "f.toml",
        };
        let e = src.error(6..7, "x");
        assert_eq!((e.line, e.column), (2, 1));
        // 'б' and 'в' are two bytes each: byte 10 is the third character of line 2.
        let e = src.error(10..11, "multi\n  line");
        assert_eq!((e.line, e.column), (2, 3));
        assert_eq!(e.to_string(), "f.toml:2:3: multi; line");
    }
}
