//! The golden predictions: every example system under every preset (and a few variants), and
//! every validation case, predicted and held to the last bit against tests/data/golden.txt.
//! A refactoring of the performance model must leave this file unchanged; a change of the
//! model's mechanisms rewrites it on purpose (`ZPOOLSIM_BLESS=1 cargo test -p
//! zpoolsim-validate --test golden`) and the diff shows which predictions moved.
//!
//! Each line holds a prediction's headline figures in Rust's shortest round-trip notation and
//! a 64-bit FNV-1a digest of its whole `Debug` text, which spells every field (those the JSON
//! leaves out too) with every bit of every number.

use model::workload::PRESETS;
use model::{Catalog, System, Workload};
use std::path::{Path, PathBuf};
use zpoolsim_validate::Corpus;

/// Workloads beyond the presets' defaults: queue depth, threads, sizes, sync, the network.
const VARIANTS: &[&str] = &[
    "fio-randread:threads=16,qd=4",
    "fio-randread:bs=128K,threads=4,size=64G",
    "fio-randrw:bs=16K,threads=8,qd=2",
    "fio-randwrite:sync=on,threads=4",
    "fio-write:sync=on",
    "fio-write:threads=4,net=on",
    "fio-read:threads=8,size=8G,net=on",
    "dd-write:data=random,size=4G",
    "dd-read:size=256G",
    "iozone-write:threads=8",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// FNV-1a, 64 bits: a digest with no dependency, stable across platforms.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One line: what was predicted, and the prediction or the error.
fn line(key: &str, system: &System, workload: &Workload) -> String {
    match perf::predict(system, workload) {
        Ok(p) => format!(
            "{key} | {:?} B/s | {:?} IOPS | {:?} s | {} | {:016x}",
            p.throughput_bytes_per_s,
            p.iops,
            p.mean_latency_s,
            p.bottleneck.resource,
            digest(&format!("{p:?}"))
        ),
        Err(e) => format!("{key} | error: {e}"),
    }
}

fn examples(catalog: &Catalog) -> Vec<(String, System)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = format!("examples/{}", path.file_name().unwrap().to_string_lossy());
            let text = std::fs::read_to_string(&path).expect("an example");
            let system = model::system_file::parse(&text, &name, catalog)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, system)
        })
        .collect()
}

fn golden() -> String {
    let catalog = Catalog::embedded();
    let mut lines = Vec::new();
    let specs = PRESETS
        .iter()
        .map(|p| p.name)
        .chain(VARIANTS.iter().copied());
    let workloads: Vec<(&str, Workload)> = specs
        .map(|s| (s, Workload::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))))
        .collect();
    for (name, system) in examples(catalog) {
        for (spec, w) in &workloads {
            lines.push(line(&format!("{name} {spec}"), &system, w));
        }
    }
    let corpus = Corpus::embedded(catalog).expect("the embedded corpus loads");
    for source in &corpus.sources {
        for c in &source.cases {
            let key = format!("{} {}", source.file, c.case.id);
            lines.push(line(&key, &c.system, &c.workload));
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn predictions_match_the_golden_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden.txt");
    let got = golden();
    if std::env::var_os("ZPOOLSIM_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).expect("tests/data/golden.txt (ZPOOLSIM_BLESS=1)");
    let moved: Vec<String> = got
        .lines()
        .zip(want.lines())
        .filter(|(g, w)| g != w)
        .map(|(g, w)| format!("  was {w}\n  now {g}"))
        .collect();
    assert!(
        moved.is_empty() && got.lines().count() == want.lines().count(),
        "{} of {} predictions moved ({} lines now, {} golden):\n{}",
        moved.len(),
        want.lines().count(),
        got.lines().count(),
        want.lines().count(),
        moved.join("\n")
    );
}
