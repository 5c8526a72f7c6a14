//! The parsers of user input, each with its seeds and the promise it keeps on any text: it
//! returns, and an error is one line (located within the text, for TOML files); the web API's
//! bodies answer 200, or 400 with one sentence about one field.

use model::{system_file, Catalog, Layout, Workload};

/// A parser under test: its name, its seed inputs and one run of it on a text.
pub struct Parser {
    /// The input it reads, as reports name it (`layout`, `workload file`, `api plan`).
    pub name: &'static str,
    /// Valid inputs the mutations start from.
    pub seeds: Vec<String>,
    /// Parses one text: `Err` with why when the parser broke its promise on it.
    pub run: fn(&str) -> Result<(), String>,
}

/// Every parser of user input.
pub fn parsers() -> Vec<Parser> {
    [text_parsers(), disk_parsers(), api_parsers()]
        .into_iter()
        .flatten()
        .collect()
}

/// The parsers of what a person types or writes in a file.
fn text_parsers() -> Vec<Parser> {
    vec![
        parser("layout", &LAYOUTS, layout),
        parser("size", &SIZES, size),
        parser("workload", &WORKLOADS, workload),
        parser("workload file", &WORKLOAD_FILES, workload_file),
        parser("needs", &NEEDS, needs),
        parser("system file", &SYSTEM_FILES, system),
        parser("catalog", &CATALOGS, catalog),
    ]
}

/// A parser with its seeds copied out of their table.
fn parser(name: &'static str, seeds: &[&str], run: fn(&str) -> Result<(), String>) -> Parser {
    Parser {
        name,
        seeds: owned(seeds),
        run,
    }
}

/// Seeds as the owned texts the mutator edits.
fn owned(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

/// Layout strings: every vdev type, counts, a spelling in capitals and a mixed pool.
const LAYOUTS: [&str; 9] = [
    "raidz2-6",
    "3x raidz1-5",
    "2x raidz2-6 + mirror-2",
    "stripe-4",
    "mirror-3",
    "draid2:8d:24c:2s",
    "draid1:16d:36c:2s",
    "draid3",
    "4X raidz3-11 + draid1:4d:10c",
];

/// Sizes in decimal and binary units, bare bytes and a fraction.
const SIZES: [&str; 8] = [
    "750GB", "4TB", "3.5TiB", "128K", "1M", "4096", "0.5 TB", "16 TiB",
];

/// Presets with parameters, and the command lines of each tool the model reads.
const WORKLOADS: [&str; 9] = [
    "dd-read",
    "fio-randread:bs=4K,qd=32,threads=2,size=10G",
    "fio-randrw:rwmix=70",
    "bonnie-seeks",
    "iozone-write:bs=1M",
    "fio --name=x --rw=randread --bs=4k --iodepth=32 --ioengine=libaio --direct=1",
    "bonnie++ -s 2g -f -n 0",
    "iozone -i 0 -i 1 -r 128k -s 4g",
    "dd if=/dev/zero of=/tank/f bs=1M count=4096",
];

/// Workload files by preset and by command.
const WORKLOAD_FILES: [&str; 3] = [
    "kind = \"fio-randrw\"\nrwmix = 50\nbs = \"16K\"\nqd = 4\n",
    "command = \"bonnie++ -s 2g -f\"\nphase = \"read\"\n",
    "kind = \"dd-write\"\nsize = \"8G\"\n",
];

/// Needs lists, one with spaces and a bare fraction, and the empty list.
const NEEDS: [&str; 4] = [
    "read>=500MB/s,write>=300MB/s,iops>=2000,avail>=40TB,loss<=1%",
    "avail>=200TB,loss<=0.1%",
    "read>=1.5GiB/s, loss<=0.001",
    "",
];

/// What calibrate reads from a disk. (The bench's flags are the bench crate's property test:
/// this crate depends on the parsers only.)
fn disk_parsers() -> Vec<Parser> {
    vec![Parser {
        name: "zfs label",
        seeds: owned(&[
            "\u{c}\u{b1}\u{ba}\0\0\0\0\0",
            "\0\0\0\0\0\u{ba}\u{b1}\u{c}",
            "\u{1}\u{1}\0\0\0\0\0\0\0\0\0\u{1}\0\0\0$\0\0\0 \0\0\0\u{7}version\0",
            "",
        ]),
        run: zfs_label,
    }]
}

/// The web API's JSON bodies.
fn api_parsers() -> Vec<Parser> {
    vec![
        Parser {
            name: "api plan",
            seeds: owned(&[
                r#"{"disks": 6, "disk": "4TB"}"#,
                r#"{"disks": 8, "disk": "seagate-exos-x16-16tb", "need": "avail>=40TB,loss<=1%", "spares": 1}"#,
                r#"{"disks": 6, "disk": "16TB", "min_redundancy": 2, "fill": "50%", "years": 3, "price": 300}"#,
                r#"{"disks": 6, "disk": "16TB", "read": "fio-read:bs=1M", "workload": ["bonnie-seeks"]}"#,
            ]),
            run: api_plan,
        },
        Parser {
            name: "api capacity",
            seeds: owned(&[
                r#"{"layout": "3x raidz1-5", "disk": "750GB", "files": ["1K", "10M"], "compression": true}"#,
                r#"{"layout": "draid2:8d:24c:2s", "disk": "16TB", "ashift": 12, "zfs": "zol-0.6.5"}"#,
                r#"{"layout": "mirror-2", "disk": "4TB", "sector": 4096, "recordsize": "1M", "file_vdevs": true}"#,
            ]),
            run: api_capacity,
        },
        Parser {
            name: "api predict",
            seeds: vec![
                api_with_system(r#""workload": "fio-randread:qd=32""#),
                api_with_system(r#""workload": "dd-read", "sweep": "bs=128K..1M""#),
            ],
            run: api_predict,
        },
        Parser {
            name: "api reliability",
            seeds: vec![
                api_with_system(r#""trials": 2000, "fill": "50%", "replacement_hours": 24"#),
                r#"{"trials": 1000, "weibull": 1.5, "years": 3, "load": "fio-randread", "seed": 7}"#
                    .to_string(),
            ],
            run: api_reliability,
        },
        Parser {
            name: "api system",
            seeds: owned(&[
                r#"{"disks": 12, "disk": "16TB", "layout": "2x raidz2-6"}"#,
                r#"{"disks": 10, "disk": "4TB", "layout": "draid1:4d:10c:1s", "price": 90}"#,
            ]),
            run: api_system,
        },
    ]
}

/// A request body of an example system file's text and `rest`.
fn api_with_system(rest: &str) -> String {
    let system = serde_json::Value::from(SYSTEM_FILES[4]);
    format!("{{\"system\": {system}, {rest}}}")
}

/// The example machines, every one a seed of the system-file parser.
const SYSTEM_FILES: [&str; 14] = [
    include_str!("../../../examples/calomel-24x-wd-re-4tb.toml"),
    include_str!("../../../examples/modern-12x20tb-special.toml"),
    include_str!("../../../examples/modern-home-4x-red-plus.toml"),
    include_str!("../../../examples/modern-nvme-2x-mirror.toml"),
    include_str!("../../../examples/raidz2-10x4tb.toml"),
    include_str!("../../../examples/seed-000-1320-box.toml"),
    include_str!("../../../examples/seed-000-stripe-7.toml"),
    include_str!("../../../examples/seed-001-5x-raidz1-3.toml"),
    include_str!("../../../examples/seed-001-7x-mirror-2.toml"),
    include_str!("../../../examples/seed-001-pcix-15-disk.toml"),
    include_str!("../../../examples/seed-002-ashift-5x3tb.toml"),
    include_str!("../../../examples/seed-002-stripe-5x3tb.toml"),
    include_str!("../../../examples/seed-004-dk32ej.toml"),
    include_str!("../../model/catalog/default-system.toml"),
];

/// The embedded catalog's files.
const CATALOGS: [&str; 4] = [
    include_str!("../../model/catalog/disks.toml"),
    include_str!("../../model/catalog/controllers.toml"),
    include_str!("../../model/catalog/cpus.toml"),
    include_str!("../../model/catalog/links.toml"),
];

/// An error message must be one line.
fn one_line(message: String) -> Result<(), String> {
    if message.contains(['\n', '\r']) {
        return Err(format!("a message of several lines: {message:?}"));
    }
    Ok(())
}

/// A located error must point inside the text.
fn located(e: &system_file::FileError, text: &str) -> Result<(), String> {
    let lines = text.split('\n').count();
    if e.line < 1 || e.column < 1 || e.line > lines {
        return Err(format!("located outside the text ({lines} lines): {e}"));
    }
    one_line(e.to_string())
}

fn layout(text: &str) -> Result<(), String> {
    match text.parse::<Layout>() {
        Ok(layout) => {
            let printed = layout.to_string();
            match printed.parse::<Layout>() {
                Ok(again) if again == layout => Ok(()),
                _ => Err(format!("printed as '{printed}', which does not read back")),
            }
        }
        Err(e) => one_line(e.to_string()),
    }
}

fn size(text: &str) -> Result<(), String> {
    match model::units::parse_size(text) {
        Ok(bytes) => one_line(model::units::format_bytes(bytes)),
        Err(e) => one_line(e.to_string()),
    }
}

fn workload(text: &str) -> Result<(), String> {
    Workload::parse(text).map_or_else(|e| one_line(e.to_string()), |_| Ok(()))
}

fn workload_file(text: &str) -> Result<(), String> {
    Workload::from_toml(text).map_or_else(|e| one_line(e.to_string()), |_| Ok(()))
}

fn needs(text: &str) -> Result<(), String> {
    plan::parse_needs(text).map_or_else(|e| one_line(e.to_string()), |_| Ok(()))
}

fn system(text: &str) -> Result<(), String> {
    match system_file::parse(text, "fuzz.toml", Catalog::embedded()) {
        Ok(system) if system.disks.is_empty() => Err("a system without disks".into()),
        Ok(_) => Ok(()),
        Err(e) => located(&e, text),
    }
}

/// A label's 256 KiB as calibrate reads them from a disk: the text (each character one byte,
/// its low eight bits) at the label's start, its nvlist, its uberblock ring and its last slot.
/// Hostile disk contents are read, never trusted: it returns, and a seed holding the magic or
/// the nvlist's head is a label.
fn zfs_label(text: &str) -> Result<(), String> {
    let bytes: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
    let mut label = vec![0u8; 256 << 10];
    for at in [0usize, 16 << 10, 128 << 10, (256 << 10) - 1024] {
        let n = bytes.len().min(label.len() - at);
        label[at..at + n].copy_from_slice(&bytes[..n]);
    }
    let _ = parse::zfs_label::is_label(&bytes);
    let magic = bytes.len() >= 8
        && [0x00ba_b10c_u64.to_le_bytes(), 0x00ba_b10c_u64.to_be_bytes()]
            .iter()
            .any(|m| bytes[..8] == m[..]);
    if magic && !parse::zfs_label::is_label(&label) {
        return Err("an uberblock magic at the ring's start is not seen".into());
    }
    Ok(())
}

fn catalog(text: &str) -> Result<(), String> {
    Catalog::default()
        .merge_file(text, "fuzz.toml")
        .map_or_else(|e| located(&e, text), |()| Ok(()))
}

/// The API's promise on any body: 200 with JSON (or a system file's TOML), or 400 with
/// `{"error": one sentence, "field"?: a key}` naming no command-line flag.
fn api(path: &str, body: &str) -> Result<(), String> {
    let (status, text) = web::post(path, body);
    match status {
        200 if path == "/api/system" => Ok(()),
        200 => serde_json::from_str::<serde_json::Value>(&text)
            .map(|_| ())
            .map_err(|e| format!("200 with a body that is not JSON ({e}): {text}")),
        400 => refusal(&text),
        _ => Err(format!("status {status}: {text}")),
    }
}

/// A 400's body: an object of one error sentence and, maybe, the field it is about.
fn refusal(text: &str) -> Result<(), String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("a 400 that is not JSON ({e}): {text}"))?;
    let error = value["error"].as_str().ok_or(format!("no error: {text}"))?;
    if value
        .as_object()
        .is_some_and(|o| o.keys().any(|k| k != "error" && k != "field"))
    {
        return Err(format!("keys beside error and field: {text}"));
    }
    if value.get("field").is_some_and(|f| !f.is_string()) {
        return Err(format!("a field that is not a key: {text}"));
    }
    if has_flag_with_value_name(error) {
        return Err(format!("a command line's words: {error}"));
    }
    one_line(error.to_string())
}

/// Whether `text` names a flag as clap writes it, `--disks <DISKS>`.
fn has_flag_with_value_name(text: &str) -> bool {
    text.match_indices(" <").any(|(at, _)| {
        let flag = text[..at].rsplit(' ').next().unwrap_or("");
        let name = text[at + 2..].split_once('>').map_or("", |(name, _)| name);
        flag.trim_start_matches('\'').starts_with("--")
            && !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '.')
    })
}

fn api_plan(body: &str) -> Result<(), String> {
    api("/api/plan", body)
}

fn api_capacity(body: &str) -> Result<(), String> {
    api("/api/capacity", body)
}

fn api_predict(body: &str) -> Result<(), String> {
    api("/api/predict", body)
}

fn api_reliability(body: &str) -> Result<(), String> {
    api("/api/reliability", body)
}

fn api_system(body: &str) -> Result<(), String> {
    api("/api/system", body)
}
