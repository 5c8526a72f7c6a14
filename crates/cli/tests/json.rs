//! Every command's `--json` against the shapes docs/json.md documents: each key the page lists
//! is printed with its type, and nothing the page does not list is printed. The page's `shape`
//! blocks are read here, so the documentation and the output cannot drift apart.

mod common;

use common::json;
use serde_json::Value;
use std::collections::BTreeMap;

/// A documented field: its type text (`number`, `[Evaluation]`, `Odds?`).
type Shape = BTreeMap<String, String>;

/// Every shape of docs/json.md, by name.
fn shapes() -> BTreeMap<String, Shape> {
    let page = include_str!("../../../docs/json.md");
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
fn check(value: &Value, ty: &str, path: &str, all: &BTreeMap<String, Shape>) {
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

fn assert_shape(args: &[&str], ty: &str) {
    let all = shapes();
    check(&json(args), ty, &args.join(" "), &all);
}

#[test]
fn the_page_has_every_shape_it_names() {
    let all = shapes();
    assert!(all.len() >= 25, "{}", all.len());
    for (name, shape) in &all {
        for ty in shape.values() {
            let bare = ty.trim_end_matches('?').trim_matches(['[', ']']);
            let bare = bare
                .strip_prefix("map<")
                .map_or(bare, |t| t.trim_end_matches('>'));
            let known = ["string", "integer", "number", "boolean"].contains(&bare)
                || all.contains_key(bare);
            assert!(known, "{name}: unknown type {ty}");
        }
    }
}

#[test]
fn capacity() {
    assert_shape(
        &[
            "capacity", "--layout", "raidz2-6", "--disk", "4TB", "--files", "1K,10M", "--json",
        ],
        "SpaceReport",
    );
    assert_shape(
        &["capacity", "examples/modern-12x20tb-special.toml", "--json"],
        "SpaceReport",
    );
}

#[test]
fn predict() {
    let file = "examples/raidz2-10x4tb.toml";
    assert_shape(&["predict", file, "-w", "dd-read", "--json"], "Prediction");
    let sweep = [
        "predict",
        file,
        "-w",
        "fio-randread",
        "--sweep",
        "qd=1,8",
        "--json",
    ];
    assert_shape(&sweep, "[Prediction]");
}

#[test]
fn validate() {
    assert_shape(&["validate", "--json"], "Validation");
}

#[test]
fn plan() {
    let args = [
        "plan",
        "--disks",
        "8",
        "--disk",
        "16TB",
        "--workload",
        "bonnie-seeks",
    ];
    assert_shape(&[&args[..], &["--json"]].concat(), "DiskPlan");
}

#[test]
fn compare() {
    for file in [
        "examples/raidz2-10x4tb.toml",
        "examples/seed-001-pcix-15-disk.toml",
    ] {
        let args = [
            "compare",
            file,
            "--layout",
            "raidz2-10",
            "--layout",
            "5x mirror-2",
            "--json",
        ];
        assert_shape(&args, "Comparison");
    }
}

#[test]
fn reliability() {
    assert_shape(&["reliability", "--trials", "1000", "--json"], "Assessment");
    let weibull = [
        "reliability",
        "--weibull",
        "2",
        "--trials",
        "1000",
        "--json",
    ];
    assert_shape(&weibull, "Assessment");
    let unknown = ["reliability", "examples/seed-000-1320-box.toml", "--json"];
    assert_shape(&unknown, "Assessment");
}

#[test]
fn report() {
    assert_shape(&["report", "--json"], "Report");
}

#[test]
fn catalog_reads_back_into_the_catalog_types() {
    let v = json(&["catalog", "--json"]);
    let disks: Vec<model::hardware::DiskModel> =
        serde_json::from_value(v["disks"].clone()).expect("disks");
    let controllers: Vec<model::hardware::ControllerModel> =
        serde_json::from_value(v["controllers"].clone()).expect("controllers");
    let cpus: Vec<model::hardware::CpuModel> =
        serde_json::from_value(v["cpus"].clone()).expect("cpus");
    let links: Vec<model::hardware::LinkModel> =
        serde_json::from_value(v["links"].clone()).expect("links");
    assert!(!disks.is_empty() && !controllers.is_empty() && !cpus.is_empty() && !links.is_empty());
}
