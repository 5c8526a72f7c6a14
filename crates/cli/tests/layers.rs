//! The crates' modules depend on each other one way only: a top-level module (src/X.rs or
//! src/X/) that names another through `crate::` is never named back by it, directly or round
//! a longer loop. Test sections (after `#[cfg(test)]`) are left out. And the walk of a
//! prediction climbs back to no lower layer once the network is solved.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each top-level module of a crate and the other top-level modules its code names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let top = |p: &Path| {
        let rel = p.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        first.trim_end_matches(".rs").to_string()
    };
    let modules: BTreeSet<String> = files
        .iter()
        .map(|p| top(p))
        .filter(|m| !["lib", "main", "tests"].contains(&m.as_str()))
        .collect();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = top(file);
        if !modules.contains(&from) {
            continue;
        }
        let text = fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let deps = g.entry(from.clone()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                None => vec![rest],
            };
            for name in names {
                let name: String = name
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name != from && modules.contains(&name) {
                    deps.insert(name);
                }
            }
        }
    }
    g
}

/// A loop through `start`, as the modules in order, if there is one.
fn loop_through(g: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![vec![start.to_string()]];
    let mut seen = BTreeSet::new();
    while let Some(path) = stack.pop() {
        for next in &g[path.last().unwrap()] {
            if next == start {
                return Some([path.clone(), vec![next.clone()]].concat());
            }
            if seen.insert(next.clone()) {
                stack.push([path.clone(), vec![next.clone()]].concat());
            }
        }
    }
    None
}

#[test]
fn module_dependencies_have_no_loops() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut loops = Vec::new();
    let mut checked = 0;
    for entry in fs::read_dir(&crates).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        checked += 1;
        let g = graph(&src);
        for module in g.keys() {
            if let Some(l) = loop_through(&g, module) {
                loops.push(format!("{name}: {}", l.join(" -> ")));
            }
        }
    }
    assert!(checked >= 8, "found only {checked} crates");
    assert!(loops.is_empty(), "module loops:\n{}", loops.join("\n"));
}

#[test]
fn a_loop_is_found() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("bench", &["runner"][..]),
        ("runner", &["store"]),
        ("store", &["bench"]),
        ("record", &[]),
    ]
    .iter()
    .map(|(m, d)| (m.to_string(), d.iter().map(|s| s.to_string()).collect()))
    .collect();
    assert_eq!(
        loop_through(&g, "bench").unwrap(),
        ["bench", "runner", "store", "bench"]
    );
    assert_eq!(loop_through(&g, "record"), None);
}

/// The modules of a prediction's walk after the solve (crates/perf/src/predict/mod.rs, steps 6
/// and 7): they work from the solution and what the stages found before it.
const AFTER_THE_SOLVE: [&str; 4] = ["figures", "bottleneck", "not_modelled", "expected_error"];

/// What those may name besides one another: the solved stations, the loads as data (the
/// `Loads` type only, see `names_beyond`), the findings gathered before the solve and the
/// release's figures.
const SOLVED: [&str; 4] = ["station", "load", "findings", "release"];

/// Each step after the solve that climbs back to a stage (`figures -> compress`).
fn climbs_back(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut out = Vec::new();
    for module in AFTER_THE_SOLVE {
        for named in g.get(module).into_iter().flatten() {
            if !AFTER_THE_SOLVE.contains(&named.as_str()) && !SOLVED.contains(&named.as_str()) {
                out.push(format!("{module} -> {named}"));
            }
        }
    }
    out
}

/// Every path `prefix` NAME in `code` (tests left out) whose NAME is not one of `allowed`.
fn names_beyond(code: &str, prefix: &str, allowed: &[&str]) -> Vec<String> {
    let code = code.split("#[cfg(test)]").next().unwrap_or_default();
    code.match_indices(prefix)
        .map(|(i, _)| {
            code[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|name| !allowed.contains(&name.as_str()))
        .collect()
}

/// The walk of `zpoolsim predict`, from main.rs to printing: the command line asks request's
/// answer and prints it, naming nothing of the engine but the prediction's type; the engine
/// asks no stage again once the network is solved; the words are request's.
#[test]
fn the_prediction_climbs_back_to_no_lower_layer_after_the_solve() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let perf = crates.join("perf/src");
    let g = graph(&perf);
    for module in AFTER_THE_SOLVE {
        assert!(g.contains_key(module), "perf has no module {module}");
    }
    assert_eq!(climbs_back(&g), Vec::<String>::new());
    for module in AFTER_THE_SOLVE {
        let text = fs::read_to_string(perf.join(format!("{module}.rs"))).unwrap();
        let beyond = names_beyond(&text, "crate::load::", &["Loads"]);
        assert!(beyond.is_empty(), "{module} names load's {beyond:?}");
    }
    let cli = fs::read_to_string(crates.join("cli/src/predict.rs")).unwrap();
    assert_eq!(
        names_beyond(&cli, "perf::", &["Prediction"]),
        Vec::<String>::new()
    );
    let request = fs::read_to_string(crates.join("request/src/predict.rs")).unwrap();
    let asked = names_beyond(&request, "perf::", &["predict", "sweep", "latency"]);
    assert_eq!(asked, Vec::<String>::new());
}

#[test]
fn a_climb_back_is_found() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("figures", &["bottleneck", "compress", "load"][..]),
        ("not_modelled", &["zil", "release"]),
        ("bottleneck", &["station"]),
    ]
    .iter()
    .map(|(m, d)| (m.to_string(), d.iter().map(|s| s.to_string()).collect()))
    .collect();
    assert_eq!(
        climbs_back(&g),
        ["figures -> compress", "not_modelled -> zil"]
    );
    let code = "use crate::load::Loads;\nfn f() { crate::load::loads(); }";
    assert_eq!(names_beyond(code, "crate::load::", &["Loads"]), ["loads"]);
}
