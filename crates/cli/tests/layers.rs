//! The crates' modules depend on each other one way only: a top-level module (src/X.rs or
//! src/X/) that names another through `crate::` is never named back by it, directly or round
//! a longer loop. Test sections (after `#[cfg(test)]`) are left out.

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
