//! A request from JSON: an object whose keys are the command's flags (`min_redundancy` or
//! `min-redundancy`) and whose values are what would follow them, handed to the same clap
//! parser as a command line, so both front ends share every default, check and message.

use crate::words::{self, field};
use crate::{Error, Refusal};
use clap::{ArgAction, Command, FromArgMatches};
use model::input::echo;
use serde_json::{Map, Value};

/// The request `T` that the JSON object `text` describes; a refusal names the key it is about
/// and speaks of keys, not flags.
pub fn from_json<T: clap::Args + FromArgMatches>(text: &str) -> Result<T, Refusal> {
    let object: Map<String, Value> = serde_json::from_str(text).map_err(|e| {
        Error(format!(
            "malformed request: {e}; expected a JSON object whose keys are the request's fields"
        ))
    })?;
    let mut command = command::<T>();
    command.build();
    let words = command_line(&command, &object)?;
    let matches = command
        .clone()
        .try_get_matches_from(words)
        .map_err(|e| words::refusal(&command, &e))?;
    T::from_arg_matches(&matches).map_err(|e| words::refusal(&command, &e))
}

/// A refusal of request `T` in the words of its fields: each of its flags that the message
/// names (`--disk`) written as the field (`disk`), and the field it is about, when not known,
/// the flag it starts with.
pub fn in_fields<T: clap::Args>(refusal: Refusal) -> Refusal {
    let command = command::<T>();
    let field = refusal
        .field
        .or_else(|| words::leading_field(&command, &refusal.error.0));
    Refusal {
        field,
        error: Error(words::plain(&command, &refusal.error.0)),
    }
}

/// The command whose flags are the fields of request `T`.
fn command<T: clap::Args>() -> Command {
    T::augment_args(
        Command::new("request")
            .no_binary_name(true)
            .color(clap::ColorChoice::Never),
    )
}

/// The words of the command line the object stands for: `--flag=value` for each value (so a
/// value starting with '-' stays a value), set flags for `true`, positionals after `--`.
fn command_line(command: &Command, object: &Map<String, Value>) -> Result<Vec<String>, Refusal> {
    let (mut named, mut positional) = (Vec::new(), Vec::new());
    for (key, value) in object {
        let flag = key.replace('_', "-");
        let arg = command
            .get_arguments()
            .find(|a| a.get_long() == Some(flag.as_str()) || a.get_id() == key.as_str())
            .ok_or_else(|| {
                Error(format!(
                    "unknown key '{}'; the keys are {}",
                    echo(key),
                    keys(command)
                ))
            })?;
        let about = |message: String| Error(message).about_field(field(arg));
        if matches!(arg.get_action(), ArgAction::SetTrue) {
            match value {
                Value::Bool(true) => named.push(format!("--{flag}")),
                Value::Bool(false) | Value::Null => {}
                _ => return Err(about(format!("'{}': expected true or false", echo(key)))),
            }
            continue;
        }
        for text in texts(&echo(key), value).map_err(|e| about(e.0))? {
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

/// The keys a request takes, as its fields.
fn keys(command: &Command) -> String {
    let names: Vec<String> = command
        .get_arguments()
        .filter(|a| !matches!(a.get_action(), ArgAction::Help | ArgAction::Version))
        .map(field)
        .collect();
    names.join(", ")
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
        from_json::<Example>(text).map_err(|e| e.error.0)
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
    fn bad_requests_say_what_is_wrong_in_one_sentence_about_one_field() {
        for (text, field, says) in [
            ("{\"disks\": 24", None, "malformed request: EOF while parsing an object at line 1 column 12; expected a JSON object whose keys are the request's fields"),
            ("[1]", None, "malformed request: invalid type: sequence, expected a map at line 1 column 0; expected a JSON object whose keys are the request's fields"),
            (r#"{"dissks": 2}"#, None, "unknown key 'dissks'; the keys are system, disks, min_redundancy, force, workload"),
            (r#"{"disks": "many"}"#, Some("disks"), "disks: 'many' is not a whole number"),
            (r#"{"disks": 1e6}"#, Some("disks"), "disks: '1000000.0' is not a whole number"),
            (r#"{"disks": 99999999999}"#, Some("disks"), "disks: '99999999999' is not from 0 to 4294967295"),
            (r#"{"force": "yes"}"#, Some("force"), "'force': expected true or false"),
            (r#"{"min-redundancy": {"n": 2}}"#, Some("min_redundancy"), "'min-redundancy': expected a string, a number, true or false, or a list of them"),
        ] {
            let refusal = from_json::<Example>(text).unwrap_err();
            assert_eq!(refusal.error.0, says, "{text}");
            assert_eq!(refusal.field.as_deref(), field, "{text}");
        }
    }

    #[test]
    fn flags_named_in_a_message_become_fields() {
        let refusal =
            crate::Error("--min-redundancy 9 and '--disks <DISKS>': see --help and --disks".into())
                .about("disks");
        let plain = in_fields::<Example>(refusal);
        assert_eq!(
            plain.error.0,
            "min_redundancy 9 and 'disks': see --help and disks"
        );
        assert_eq!(plain.field.as_deref(), Some("disks"));
        let leading =
            in_fields::<Example>(crate::Error("--min-redundancy 9: too many".into()).into());
        assert_eq!(leading.error.0, "min_redundancy 9: too many");
        assert_eq!(leading.field.as_deref(), Some("min_redundancy"));
        let none = in_fields::<Example>(crate::Error("no layout --fits".into()).into());
        assert_eq!(none.field, None);
    }
}
