//! The JSON shapes docs/json.md documents, read from the page, and the check of a command's
//! output against them (tests/json.rs; the measure test checks its commands with it too).

use serde_json::Value;
use std::collections::BTreeMap;

/// A documented field: its type text (`number`, `[Evaluation]`, `Odds?`).
pub(crate) type Shape = BTreeMap<String, String>;

/// Every shape of docs/json.md, by name.
pub(crate) fn shapes() -> BTreeMap<String, Shape> {
    let page = include_str!("../../../../docs/json.md");
    let mut out = BTreeMap::new();
    let mut in_block = false;
    let mut current: Option<(String, Shape)> = None;
    for line in page.lines() {
        let code = line.split('#').next().unwrap_or("").trim();
        if line.trim() == "```shape" {
            in_block = true;
        } else if in_block && line.trim() == "```" {
            in_block = false;
        } else if !in_block || code.is_empty() {
            continue;
        } else if let Some(name) = code.strip_suffix('{') {
            current = Some((name.trim().to_string(), Shape::new()));
        } else if code == "}" {
            let (name, shape) = current.take().expect("a shape is open");
            out.insert(name, shape);
        } else {
            let (key, ty) = code.split_once(':').expect("key: type");
            let shape = &mut current.as_mut().expect("inside a shape").1;
            shape.insert(key.trim().to_string(), ty.trim().to_string());
        }
    }
    out
}

/// Checks `value` against type `ty`, naming the path on failure.
pub(crate) fn check(value: &Value, ty: &str, path: &str, all: &BTreeMap<String, Shape>) {
    if let Some(inner) = ty.strip_suffix('?') {
        if !value.is_null() {
            check(value, inner, path, all);
        }
        return;
    }
    if let Some(inner) = ty.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let items = value
            .as_array()
            .unwrap_or_else(|| panic!("{path}: not a list"));
        for (i, item) in items.iter().enumerate() {
            check(item, inner, &format!("{path}[{i}]"), all);
        }
        return;
    }
    if let Some(inner) = ty.strip_prefix("map<").and_then(|t| t.strip_suffix('>')) {
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("{path}: not a map"));
        for (k, v) in object {
            check(v, inner, &format!("{path}.{k}"), all);
        }
        return;
    }
    let ok = match ty {
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        name => {
            let shape = all
                .get(name)
                .unwrap_or_else(|| panic!("{path}: no shape {name} in docs/json.md"));
            let object = value
                .as_object()
                .unwrap_or_else(|| panic!("{path}: not an object ({name})"));
            for key in object.keys() {
                assert!(
                    shape.contains_key(key),
                    "{path}.{key}: printed, not in docs/json.md's {name}"
                );
            }
            for (key, field) in shape {
                match object.get(key) {
                    Some(v) => check(v, field, &format!("{path}.{key}"), all),
                    None => assert!(
                        field.ends_with('?'),
                        "{path}.{key}: in docs/json.md's {name}, not printed"
                    ),
                }
            }
            true
        }
    };
    assert!(ok, "{path}: expected {ty}, found {value}");
}

pub(crate) fn assert_shape(args: &[&str], ty: &str) {
    let all = shapes();
    check(&super::json(args), ty, &args.join(" "), &all);
}
