//! A request from JSON: an object whose keys are the command's flags (`min_redundancy` or
//! `min-redundancy`) and whose values are what would follow them, handed to the same clap
//! parser as a command line, so both front ends share every default, check and message.

use crate::Error;
use clap::{ArgAction, Command, FromArgMatches};
use serde_json::{Map, Value};

/// The request `T` that the JSON object `text` describes.
pub fn from_json<T: clap::Args + FromArgMatches>(text: &str) -> Result<T, Error> {
    let object: Map<String, Value> = serde_json::from_str(text).map_err(|e| {
        Error(format!(
            "malformed request: {e}; expected a JSON object whose keys are the command's flags"
        ))
    })?;
    let command = T::augment_args(
        Command::new("request")
            .no_binary_name(true)
            .color(clap::ColorChoice::Never),
    );
    let words = command_line(&command, &object)?;
    let matches = command
        .try_get_matches_from(words)
        .map_err(|e| Error(first_paragraph(&e.to_string())))?;
    T::from_arg_matches(&matches).map_err(|e| Error(first_paragraph(&e.to_string())))
}

/// The words of the command line the object stands for: `--flag=value` for each value (so a
/// value starting with '-' stays a value), set flags for `true`, positionals after `--`.
fn command_line(command: &Command, object: &Map<String, Value>) -> Result<Vec<String>, Error> {
    let (mut named, mut positional) = (Vec::new(), Vec::new());
    for (key, value) in object {
        let flag = key.replace('_', "-");
        let arg = command
            .get_arguments()
            .find(|a| a.get_long() == Some(flag.as_str()) || a.get_id() == key.as_str())
            .ok_or_else(|| {
                Error(format!(
                    "unknown key '{key}'; the keys are {}",
                    keys(command)
                ))
            })?;
        if matches!(arg.get_action(), ArgAction::SetTrue) {
            match value {
                Value::Bool(true) => named.push(format!("--{flag}")),
                Value::Bool(false) | Value::Null => {}
                _ => return Err(Error(format!("'{key}': expected true or false"))),
            }
            continue;
        }
        for text in texts(key, value)? {
            match arg.get_long() {
                Some(long) => named.push(format!("--{long}={text}")),
                None => positional.push(text),
            }
        }
    }
    if !positional.is_empty() {
        named.push("--".into());
        named.extend(positional);
    }
    Ok(named)
}

/// A value as the words that would follow its flag: a list gives one word per item.
fn texts(key: &str, value: &Value) -> Result<Vec<String>, Error> {
    let word = |v: &Value| match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(Error(format!(
            "'{key}': expected a string, a number, true or false, or a list of them"
        ))),
    };
    match value {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items.iter().map(word).collect(),
        v => Ok(vec![word(v)?]),
    }
}

/// The keys a request takes, as the flags' long names without dashes.
fn keys(command: &Command) -> String {
    let names: Vec<String> = command
        .get_arguments()
        .filter(|a| !matches!(a.get_action(), ArgAction::Help | ArgAction::Version))
        .map(|a| a.get_long().map_or(a.get_id().to_string(), str::to_string))
        .collect();
    names.join(", ")
}

/// clap's message without its `error:` prefix, usage and tips: one line.
fn first_paragraph(message: &str) -> String {
    let text = message.trim_start_matches("error: ");
    let paragraph = text.split("\n\n").next().unwrap_or(text);
    paragraph.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request of two flags, a switch, a list and an optional positional.
    #[derive(clap::Args, Debug, PartialEq)]
    struct Example {
        system: Option<String>,
        #[arg(long)]
        disks: Option<u32>,
        #[arg(long, default_value = "")]
        min_redundancy: String,
        #[arg(long)]
        force: bool,
        #[arg(long = "workload")]
        workloads: Vec<String>,
    }

    fn parse(text: &str) -> Result<Example, String> {
        from_json::<Example>(text).map_err(|e| e.0)
    }

    #[test]
    fn keys_are_flags() {
        let e = parse(
            r#"{"disks": 24, "min_redundancy": "-1", "force": true, "workload": ["a", "b"],
                "system": "--name = \"x\""}"#,
        )
        .unwrap();
        assert_eq!(
            e,
            Example {
                system: Some("--name = \"x\"".into()),
                disks: Some(24),
                min_redundancy: "-1".into(),
                force: true,
                workloads: vec!["a".into(), "b".into()],
            }
        );
        assert_eq!(
            parse(r#"{"min-redundancy": "2"}"#).unwrap().min_redundancy,
            "2"
        );
        assert_eq!(parse("{}").unwrap().disks, None);
    }

    #[test]
    fn bad_requests_say_what_is_wrong_in_one_line() {
        for (text, says) in [
            ("{\"disks\": 24", "malformed request: EOF while parsing an object at line 1 column 12; expected a JSON object whose keys are the command's flags"),
            ("[1]", "malformed request: invalid type: sequence, expected a map at line 1 column 0; expected a JSON object whose keys are the command's flags"),
            (r#"{"dissks": 2}"#, "unknown key 'dissks'; the keys are system, disks, min-redundancy, force, workload"),
            (r#"{"disks": "many"}"#, "invalid value 'many' for '--disks <DISKS>': invalid digit found in string"),
            (r#"{"disks": 1e6}"#, "invalid value '1000000.0' for '--disks <DISKS>': invalid digit found in string"),
            (r#"{"force": "yes"}"#, "'force': expected true or false"),
            (r#"{"disks": {"n": 2}}"#, "'disks': expected a string, a number, true or false, or a list of them"),
        ] {
            assert_eq!(parse(text).unwrap_err(), says, "{text}");
        }
    }
}
