//! The parsers of user input, each with its seeds and the promise it keeps on any text: it
//! returns, and an error is one line (located within the text, for TOML files).

use model::{system_file, Catalog, Layout, Workload};

/// A parser under test: its name, its seed inputs and one run of it on a text.
pub struct Parser {
    pub name: &'static str,
    pub seeds: Vec<String>,
    pub run: fn(&str) -> Result<(), String>,
}

/// Every parser of user input.
pub fn parsers() -> Vec<Parser> {
    let owned = |texts: &[&str]| texts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    vec![
        Parser {
            name: "layout",
            seeds: owned(&[
                "raidz2-6",
                "3x raidz1-5",
                "2x raidz2-6 + mirror-2",
                "stripe-4",
                "mirror-3",
                "draid2:8d:24c:2s",
                "draid1:16d:36c:2s",
                "draid3",
                "4X raidz3-11 + draid1:4d:10c",
            ]),
            run: layout,
        },
        Parser {
            name: "size",
            seeds: owned(&[
                "750GB", "4TB", "3.5TiB", "128K", "1M", "4096", "0.5 TB", "16 TiB",
            ]),
            run: size,
        },
        Parser {
            name: "workload",
            seeds: owned(&[
                "dd-read",
                "fio-randread:bs=4K,qd=32,threads=2,size=10G",
                "fio-randrw:rwmix=70",
                "bonnie-seeks",
                "iozone-write:bs=1M",
                "fio --name=x --rw=randread --bs=4k --iodepth=32 --ioengine=libaio --direct=1",
                "bonnie++ -s 2g -f -n 0",
                "iozone -i 0 -i 1 -r 128k -s 4g",
                "dd if=/dev/zero of=/tank/f bs=1M count=4096",
            ]),
            run: workload,
        },
        Parser {
            name: "workload file",
            seeds: owned(&[
                "kind = \"fio-randrw\"\nrwmix = 50\nbs = \"16K\"\nqd = 4\n",
                "command = \"bonnie++ -s 2g -f\"\nphase = \"read\"\n",
                "kind = \"dd-write\"\nsize = \"8G\"\n",
            ]),
            run: workload_file,
        },
        Parser {
            name: "needs",
            seeds: owned(&[
                "read>=500MB/s,write>=300MB/s,iops>=2000,avail>=40TB,loss<=1%",
                "avail>=200TB,loss<=0.1%",
                "read>=1.5GiB/s, loss<=0.001",
                "",
            ]),
            run: needs,
        },
        Parser {
            name: "system file",
            seeds: owned(&SYSTEM_FILES),
            run: system,
        },
        Parser {
            name: "catalog",
            seeds: owned(&CATALOGS),
            run: catalog,
        },
    ]
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

fn catalog(text: &str) -> Result<(), String> {
    Catalog::default()
        .merge_file(text, "fuzz.toml")
        .map_or_else(|e| located(&e, text), |()| Ok(()))
}
