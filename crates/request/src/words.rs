//! A request's errors in the words of its fields, for a form rather than a command line: a
//! flag `--min-redundancy <MIN_REDUNDANCY>` is the field `min_redundancy`, and clap's own
//! errors become one sentence naming the field and the value it turned down.

use crate::{Error, Refusal};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Command};
use model::input::echo;

/// The field an argument is, as a request's key: its long name with underscores, or the id of
/// a positional argument.
pub(crate) fn field(arg: &Arg) -> String {
    arg.get_long()
        .map_or(arg.get_id().to_string(), |l| l.replace('-', "_"))
}

/// The field a message is about when it starts with one of `command`'s flags, as the
/// command line's messages about one flag do (`--disk: bad size '4QB': ...`).
pub(crate) fn leading_field(command: &Command, message: &str) -> Option<String> {
    let name = message.strip_prefix("--")?;
    let name = &name[..name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(name.len())];
    command
        .get_arguments()
        .find(|a| a.get_long() == Some(name))
        .map(field)
}

/// `message` with each flag of `command` it names (`--disk`, `'--disks <DISKS>'`) written as
/// its field (`disk`, `'disks'`).
pub(crate) fn plain(command: &Command, message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(after.len());
        let name = &after[..name_len];
        match command.get_arguments().find(|a| a.get_long() == Some(name)) {
            Some(arg) => {
                out.push_str(&field(arg));
                rest = skip_value_name(&after[name_len..]);
            }
            None => {
                out.push_str("--");
                out.push_str(name);
                rest = &after[name_len..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` without a leading ` <VALUE>` placeholder, as clap writes after a flag.
fn skip_value_name(text: &str) -> &str {
    let Some(placeholder) = text.strip_prefix(" <") else {
        return text;
    };
    match placeholder.find('>') {
        Some(end) if placeholder[..end].chars().all(|c| !c.is_whitespace()) => {
            &placeholder[end + 1..]
        }
        _ => text,
    }
}

/// clap's error about a request of `command` as one sentence about the field it concerns.
pub(crate) fn refusal(command: &Command, e: &clap::Error) -> Refusal {
    let shown: Vec<String> = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(s)) => s.clone(),
        _ => Vec::new(),
    };
    let fields: Vec<String> = shown
        .iter()
        .filter_map(|s| command.get_arguments().find(|a| a.to_string() == *s))
        .map(field)
        .collect();
    let value = match e.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(s)) => Some(s),
        _ => None,
    };
    let message = match (e.kind(), fields.first(), value) {
        (ErrorKind::ValueValidation | ErrorKind::InvalidValue, Some(f), Some(value)) => {
            format!("{f}: '{}' {}", echo(value), why_not(e))
        }
        (ErrorKind::MissingRequiredArgument, Some(_), _) => {
            format!("give {}", fields.join(" and "))
        }
        _ => plain(command, &first_paragraph(&e.to_string())),
    };
    Refusal {
        field: fields.into_iter().next(),
        error: Error(message),
    }
}

/// Why a value was turned down, in plain words for the parse errors of numbers.
fn why_not(e: &clap::Error) -> String {
    let source = std::error::Error::source(e).map_or(String::new(), |s| s.to_string());
    match source.as_str() {
        "invalid digit found in string" | "cannot parse integer from empty string" => {
            "is not a whole number".into()
        }
        "number too large to fit in target type" => "is too large".into(),
        "invalid float literal" => "is not a number".into(),
        "" => "is not one of the values it takes".into(),
        other => match other
            .split_once(" is not in ")
            .and_then(|(_, range)| range.split_once("..="))
        {
            Some((low, high)) => format!("is not from {low} to {high}"),
            None => format!("is refused: {other}"),
        },
    }
}

/// clap's message without its `error:` prefix, usage and tips: one line.
pub(crate) fn first_paragraph(message: &str) -> String {
    let text = message.trim_start_matches("error: ");
    let paragraph = text.split("\n\n").next().unwrap_or(text);
    paragraph.split_whitespace().collect::<Vec<_>>().join(" ")
}
