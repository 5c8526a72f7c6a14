//! Every command's `--json` against the shapes docs/json.md documents: each key the page lists
//! is printed with its type, and nothing the page does not list is printed. The page's `shape`
//! blocks are read here, so the documentation and the output cannot drift apart.

mod common;

use common::json;
use common::scratch::Scratch;
use common::shapes::{assert_shape, shapes};

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
    assert_shape(
        &[
            "capacity",
            "--layout",
            "raidz1-4",
            "--disk",
            "16TB",
            "--expand",
            "raidz1-4 -> raidz1-5 at 70%",
            "--json",
        ],
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

/// A corpus of two small sources (seeds 000 and 004, 19 cases) in a directory of its own, so
/// a refit and a cross-validation take seconds; their systems named by absolute path.
fn small_corpus() -> Scratch {
    let top = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let top = top.canonicalize().expect("the repository");
    let dir = Scratch::new("corpus");
    std::fs::create_dir(dir.join("cases")).unwrap();
    for file in ["000-zfs-box-2008.toml", "004-128k-record-2006.toml"] {
        let text = std::fs::read_to_string(top.join("validation").join(file)).unwrap();
        let examples = format!("system = \"{}/examples/", top.display());
        let text = text.replace("system = \"../examples/", &examples);
        std::fs::write(dir.join("cases").join(file), text).unwrap();
    }
    dir
}

#[test]
fn validate_refit_and_cross_validation() {
    let dir = small_corpus();
    let d = &dir.path("cases");
    assert_shape(&["validate", "--dir", d, "--refit", "--json"], "Refit");
    assert_shape(
        &["validate", "--dir", d, "--cv", "--json"],
        "CrossValidation",
    );
    // -o writes the constants file the JSON carries, and will not replace it unasked.
    let out = dir.join("constants.toml");
    let o = out.to_str().unwrap();
    let refit = common::json(&["validate", "--dir", d, "--refit", "--json", "-o", o]);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(refit["file"].as_str(), Some(written.as_str()));
    assert_eq!(written.lines().filter(|l| l.contains(" = ")).count(), 20);
    let (code, _, err) = common::run(&["validate", "--dir", d, "--refit", "-o", o]);
    assert_eq!(code, 2);
    assert!(err.contains("give --force"), "{err}");
    // --cv -o writes the bands file of the figures the JSON carries.
    let out = dir.join("bands.toml");
    let o = out.to_str().unwrap();
    let cv = common::json(&["validate", "--dir", d, "--cv", "--json", "-o", o]);
    let written = std::fs::read_to_string(&out).unwrap();
    let classes = cv["by_class"].as_array().unwrap();
    assert_eq!(written.matches("[[band]]").count(), classes.len());
    let cases = format!("\ncases = {}\n", cv["cases"].as_array().unwrap().len());
    assert!(written.contains(&cases), "{written}");
    let (code, _, err) = common::run(&["validate", "--dir", d, "--cv", "-o", o]);
    assert_eq!(code, 2);
    assert!(err.contains("give --force"), "{err}");
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
    assert_shape(
        &[&args[..], &["--grow-to", "10", "--json"]].concat(),
        "DiskPlan",
    );
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
    // One batch: the simulation runs, the closed form says why it is not given.
    let batch = ["reliability", "--same-batch", "--trials", "1000", "--json"];
    assert_shape(&batch, "Assessment");
    let v = json(&batch);
    assert_eq!(v["same_batch"], true);
    assert!(v["closed_form"].is_null());
    let why = v["closed_form_invalid"].as_str().unwrap();
    assert!(
        why.starts_with("the disks are of one batch (--same-batch)"),
        "{why}"
    );
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
