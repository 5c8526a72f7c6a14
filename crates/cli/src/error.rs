//! The one error type of the front end: a request's sentence for the user, exit code 2.

pub(crate) use request::Error as CliError;

pub(crate) type CliResult = Result<(), CliError>;

/// A command-line error of clap's as the one line every other error is: `zpoolsim: what`, the
/// value the user typed escaped and cut short, a suggestion kept (`did you mean`), the advice
/// to pass a value after `--` dropped (values may start with '-'), and the usage on a second
/// line only where something is missing or unknown.
pub(crate) fn clap_message(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let mut text = e.render().to_string();
    for kind in [ContextKind::InvalidValue, ContextKind::InvalidArg] {
        if let Some(ContextValue::String(value)) = e.get(kind) {
            text = text.replacen(value.as_str(), &model::input::echo(value), 1);
        }
    }
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let mut usage = None;
    for line in lines.map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(tip) = line.strip_prefix("tip: ") {
            if !tip.starts_with("to pass") {
                message += &format!("; {tip}");
            }
        } else if let Some(u) = line.strip_prefix("Usage: ") {
            usage = Some(u.to_string());
        } else if !line.starts_with("For more information") {
            // The items of a list (the missing arguments).
            let joiner = if message.ends_with(':') { " " } else { ", " };
            message += joiner;
            message += line;
        }
    }
    let usage_helps = matches!(
        e.kind(),
        ErrorKind::MissingRequiredArgument | ErrorKind::UnknownArgument
    );
    match usage {
        Some(u) if usage_helps => format!("zpoolsim: {message}\nusage: {u}"),
        _ => format!("zpoolsim: {message}"),
    }
}
