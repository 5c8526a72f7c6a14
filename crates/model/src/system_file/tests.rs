use super::*;
use crate::hardware::{LinkKind, Simd};
use crate::layout::VdevType;
use crate::pool::VdevClass;
use crate::system::{Attach, Upstream, ZfsRelease};

/// Every file under examples/, by name.
fn examples() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

fn example(name: &str) -> System {
    let (_, text) = examples().into_iter().find(|(n, _)| n == name).unwrap();
    parse(&text, name, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_example_parses() {
    let all = examples();
    assert!(all.len() >= 11, "{} examples", all.len());
    for (name, text) in all {
        let system = parse(&text, &name, Catalog::embedded()).unwrap_or_else(|e| panic!("{e}"));
        assert!(!system.disks.is_empty(), "{name}");
    }
}

/// openzfs/zfs#7834's "2x Intel X5687 (8c) @3.60GHz": a Xeon 5600 part of 2011 whose core is
/// the Westmere of 2010 (Nehalem's 32 nm shrink), so it carries its core's year and, with it,
/// Nehalem's speed per clock; SSE4.2 without AVX.
#[test]
fn pruiz_xeon_x5687_carries_its_westmere_cores_year() {
    for name in [
        "pruiz-2018-zol-0.6.5-rs4k.toml",
        "pruiz-2018-zol-master-rs16k.toml",
    ] {
        let s = example(name);
        let cpu = &s.host.cpu;
        assert_eq!(cpu.name, "Intel Xeon X5687", "{name}");
        assert_eq!((cpu.cores, s.host.sockets, cpu.ghz), (4, 2, 3.6), "{name}");
        assert_eq!((cpu.year, cpu.simd), (2010, Simd::Sse2), "{name}");
    }
}

#[test]
fn seed_000_is_the_1320_box() {
    let s = example("seed-000-1320-box.toml");
    assert_eq!(s.disks.len(), 7);
    let names: Vec<&str> = s.disks.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        ["c0t0d0", "c0t1d0", "c0t2d0", "c0t3d0", "c1t0d0", "c2t0d0", "c2t1d0"]
    );
    assert_eq!(s.disks[4].attach, Attach::Controller("c1".into()));
    assert_eq!(s.disks[4].model.seq_outer_mb_s, 81.0);
    assert_eq!(s.controllers[1].model.port_limit_mb_s, Some(87.0));
    let pcie = s.links.iter().find(|l| l.id == "pcie-x1").unwrap();
    assert_eq!(
        pcie.kind,
        LinkKind::Pcie {
            gen: 1,
            lanes: 1,
            max_payload: 256
        }
    );
    assert_eq!(
        s.links
            .iter()
            .find(|l| l.id == "pci")
            .unwrap()
            .parent
            .as_deref(),
        Some("alink")
    );
    // Named catalog links take the catalog's figures; the file's source stays.
    assert_eq!(
        s.links[0].kind,
        LinkKind::Pcie {
            gen: 1,
            lanes: 4,
            max_payload: 128
        }
    );
    let pci = s.links.iter().find(|l| l.id == "pci").unwrap();
    assert_eq!(
        pci.kind,
        LinkKind::Pci {
            bits: 32,
            mhz: 33.33
        }
    );
    assert!(pci.source.as_deref().unwrap().starts_with("seed 000"));
    assert_eq!(s.host.ram_bytes, 1 << 30);
    assert_eq!(s.host.cpu.cores, 2);
    assert_eq!(s.host.zfs, ZfsRelease::Solaris { year: 2008 });
    assert_eq!(s.pool.ashift, 9);
    assert_eq!(s.pool.vdevs.len(), 1);
    let top = &s.pool.vdevs[0];
    assert_eq!(top.layout.to_string(), "raidz1-7");
    assert_eq!(top.leaf.capacity_bytes, 750_156_374_016);
    assert!(!top.leaf.whole_disk);
    assert_eq!(s.pool.datasets[0].recordsize, 128 * 1024);
    assert_eq!(
        example("seed-000-stripe-7.toml").pool.vdevs[0]
            .layout
            .top_level_vdevs(),
        7
    );
}

#[test]
fn seed_001_002_004_layouts_and_hardware() {
    let s = example("seed-001-pcix-15-disk.toml");
    assert_eq!(s.disks.len(), 15);
    assert_eq!(s.pool.vdevs[0].layout.to_string(), "3x raidz1-5");
    assert_eq!(
        s.links[0].kind,
        LinkKind::PciX {
            bits: 64,
            mhz: 133.33
        }
    );
    assert_eq!(s.host.nics[0].ports, 2);
    assert_eq!(
        example("seed-001-5x-raidz1-3.toml").pool.vdevs[0]
            .layout
            .leaves(),
        15
    );
    let mirrors = example("seed-001-7x-mirror-2.toml");
    assert_eq!(mirrors.disks.len(), 14);
    assert_eq!(
        mirrors.pool.vdevs[0].layout.groups[0].vtype,
        VdevType::Mirror
    );

    let s = example("seed-002-ashift-5x3tb.toml");
    assert_eq!((s.pool.name.as_str(), s.pool.ashift), ("zdata", 12));
    assert_eq!(s.host.ram_bytes, 12 << 30);
    assert_eq!(s.disks[4].name, "ada4");
    assert_eq!(s.disks[0].model.zones.len(), 5);
    assert_eq!(
        example("seed-002-stripe-5x3tb.toml").pool.vdevs[0]
            .layout
            .to_string(),
        "stripe-5"
    );

    let s = example("seed-004-dk32ej.toml");
    assert_eq!(s.disks[0].model.rpm, Some(10000));
    assert_eq!(s.controllers[0].model.id, "seed004-scsi-hba");
    assert!(s.pool.vdevs[0].leaf.whole_disk);
}

#[test]
fn modern_examples_fill_classes_in_order() {
    let s = example("modern-12x20tb-special.toml");
    let classes: Vec<(VdevClass, String)> = s
        .pool
        .vdevs
        .iter()
        .map(|t| (t.class, t.layout.to_string()))
        .collect();
    assert_eq!(
        classes,
        [
            (VdevClass::Normal, "2x raidz2-6".to_string()),
            (VdevClass::Special, "mirror-2".to_string())
        ]
    );
    assert_eq!(s.pool.vdevs[1].leaf.capacity_bytes, 3_840_755_982_336);
    assert_eq!(s.pool.datasets[0].recordsize, 1 << 20);
    assert_eq!(s.pool.datasets[1].compression_ratio, 1.4);
    let home = example("modern-home-4x-red-plus.toml");
    assert_eq!(home.pool.cache_devices, 1);
    // ashift left out: OpenZFS 2 takes the 4 KiB physical sector.
    assert_eq!(home.pool.ashift, 12);
    // The L2ARC SSD is the last disk and is in no vdev.
    assert_eq!(home.pool.vdevs[0].leaf.capacity_bytes, 4_000_787_030_016);
    let nvme = example("modern-nvme-2x-mirror.toml");
    assert_eq!(nvme.disks[3].attach, Attach::Link("nvme3".into()));
}

#[test]
fn default_system_is_a_modern_raidz2() {
    let s = default_system();
    assert_eq!(s.pool.vdevs[0].layout.to_string(), "raidz2-8");
    assert_eq!(s.disks.len(), 8);
    assert_eq!(s.disks[0].model.capacity_bytes, 16_000_900_661_248);
    assert_eq!(s.host.nics[0].gbps, 10.0);
}

const SMALL: &str = r#"name = "small"

[host]
cpu = "amd-epyc-7313p"
ram = "64GiB"

[[link]]
id = "slot"
kind = "pcie"
gen = 3
lanes = 8
max_payload = 256

[[controller]]
id = "hba"
model = "lsi-sas3008"
link = "slot"

[[disk]]
name = "sd{}"
count = 4
model = "seagate-exos-x16-16tb"
controller = "hba"

[pool]
layout = "raidz1-4"
"#;

/// The one-line error for SMALL with `from` replaced by `to`.
fn error(from: &str, to: &str) -> String {
    assert!(SMALL.contains(from), "{from}");
    parse(&SMALL.replace(from, to), "s.toml", Catalog::embedded())
        .unwrap_err()
        .to_string()
}

#[test]
fn the_small_system_parses() {
    let s = parse(SMALL, "s.toml", Catalog::embedded()).unwrap();
    assert_eq!(s.pool.name, "tank");
    assert_eq!(s.pool.ashift, 12);
    assert_eq!(s.host.sockets, 1);
    assert_eq!(s.host.zfs, ZfsRelease::default());
}

#[test]
fn errors_point_at_what_to_fix() {
    // A bad layout string: at the string.
    assert_eq!(
        error("layout = \"raidz1-4\"", "layout = \"raidz5-4\""),
        "s.toml:26:10: bad layout 'raidz5-4': 'raidz5': raidz parity is 1, 2 or 3 (OpenZFS has no higher parity)"
    );
    // Disk count against the layout: at [pool].
    assert_eq!(
        error("layout = \"raidz1-4\"", "layout = \"raidz1-5\"\nspares = 1"),
        "s.toml:25:1: the pool needs 6 disks (layout raidz1-5: 5, spares: 1, cache: 0) but 4 are declared in [[disk]]"
    );
    // An unknown catalog id: at the id, with suggestions.
    let e = error("model = \"seagate-exos-x16-16tb\"", "model = \"exos-x16\"");
    assert!(
        e.starts_with(
            "s.toml:22:9: no disk 'exos-x16' in the catalog; did you mean 'seagate-exos-x16-16tb'?"
        ),
        "{e}"
    );
    // An unknown key: at the key.
    let e = error("ram = \"64GiB\"", "ram = \"64GiB\"\nswap = 2");
    assert!(
        e.starts_with("s.toml:6:1: unknown field `swap`, expected one of"),
        "{e}"
    );
    // A bad size: at the value.
    assert_eq!(
        error("ram = \"64GiB\"", "ram = \"64 gigs\""),
        "s.toml:5:7: bad size '64 gigs': expected a number with an optional unit: B, K/KiB, M/MiB, G/GiB, T/TiB (binary) or KB, MB, GB, TB (decimal)"
    );
    // No memory: at the value, whether a string or a number.
    assert_eq!(
        error("ram = \"64GiB\"", "ram = \"0\""),
        "s.toml:5:7: ram cannot be 0: give the host's memory"
    );
    assert_eq!(
        error("ram = \"64GiB\"", "ram = 0"),
        "s.toml:5:7: ram cannot be 0: give the host's memory"
    );
    // A controller on a link that does not exist: at the link name.
    assert_eq!(
        error("link = \"slot\"", "link = \"slot9\""),
        "s.toml:17:8: controller 'hba': link 'slot9' is not a [[link]] of this file (known: slot)"
    );
    // A link naming a kind of link the catalog does not have: at the link.
    let e = error(
        "kind = \"pcie\"\ngen = 3\nlanes = 8\nmax_payload = 256",
        "model = \"pcix-64\"",
    );
    assert!(
        e.starts_with(
            "s.toml:7:1: no link 'pcix-64' in the catalog; did you mean 'pcix-64-100' or 'pcix-64-133'?"
        ),
        "{e}"
    );
    // A named link with figures of its own.
    let e = error("kind = \"pcie\"", "model = \"pci-32-33\"");
    assert!(e.starts_with("s.toml:7:1: unknown field `gen`"), "{e}");
    // A link whose parent is missing: at the link.
    let e = error(
        "max_payload = 256",
        "max_payload = 256\nparent = \"nowhere\"",
    );
    assert!(
        e.starts_with("s.toml:7:1: link 'slot': parent 'nowhere' is not a [[link]]"),
        "{e}"
    );
    // A wrong type: toml's span.
    let e = error("count = 4", "count = \"four\"");
    assert!(
        e.starts_with("s.toml:21:9: invalid type: string \"four\", expected u32"),
        "{e}"
    );
    // A count past any machine.
    assert_eq!(
        error("count = 4", "count = 4000000000"),
        "s.toml:21:9: count must be 1 to 10000"
    );
    // More disks on a controller than it has ports.
    let e = error("count = 4", "count = 9");
    assert!(
        e.contains("controller 'hba' has 8 ports but 9 disks"),
        "{e}"
    );
    // A value where a table belongs, and a model of the wrong type.
    assert_eq!(
        error(
            "[host]\ncpu = \"amd-epyc-7313p\"\nram = \"64GiB\"\n",
            "host = 3\n"
        ),
        "s.toml:3:8: invalid type: integer `3`, expected a [host] table"
    );
    assert_eq!(
        error("cpu = \"amd-epyc-7313p\"", "cpu = 5"),
        "s.toml:4:7: expected a catalog id (a string) or an inline model (a table), found an integer"
    );
    // A TOML syntax error.
    let e = error("gen = 3", "gen = ");
    assert!(e.starts_with("s.toml:10:7:"), "{e}");
    // A SATA disk on a link: only NVMe sits on one.
    let e = error("controller = \"hba\"", "link = \"slot\"");
    assert!(
        e.starts_with("s.toml:23:8: only an NVMe disk sits on a link"),
        "{e}"
    );
    // An ashift out of range.
    assert_eq!(
        error(
            "layout = \"raidz1-4\"",
            "layout = \"raidz1-4\"\nashift = 17"
        ),
        "s.toml:27:10: ashift must be 9 to 16, not 17"
    );
    // A count without a unit-number placeholder.
    let e = error("name = \"sd{}\"", "name = \"sd\"");
    assert!(
        e.starts_with("s.toml:20:8: with count = 4, the name needs '{}'"),
        "{e}"
    );
    // A dataset outside the pool.
    let e = error(
        "layout = \"raidz1-4\"\n",
        "layout = \"raidz1-4\"\n\n[[dataset]]\nname = \"other/x\"\n",
    );
    assert!(
        e.starts_with("s.toml:29:8: dataset 'other/x' is not in pool 'tank'"),
        "{e}"
    );
}

#[test]
fn measured_figures_replace_the_catalogs_with_their_source() {
    let text = SMALL.replace(
        "controller = \"hba\"\n",
        "controller = \"hba\"\nmeasured = { seq_outer_mb_s = 240.0, source = \"my dd, 2026\" }\n",
    );
    let s = parse(&text, "s.toml", Catalog::embedded()).unwrap();
    assert_eq!(s.disks[0].model.seq_outer_mb_s, 240.0);
    assert_eq!(s.disks[0].model.sources["seq_outer_mb_s"], "my dd, 2026");
    let e = parse(
        &text.replace(", source = \"my dd, 2026\"", ""),
        "s.toml",
        Catalog::embedded(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.toml:24:12: measured: needs `source`: where the measured figures come from"
    );
    let e = parse(
        &text.replace("seq_outer_mb_s = 240.0", "speed = 240.0"),
        "s.toml",
        Catalog::embedded(),
    )
    .unwrap_err();
    assert!(
        e.message
            .starts_with("measured: 'speed' is not a disk figure"),
        "{e}"
    );
}

#[test]
fn the_documented_example_parses() {
    let doc = include_str!("../../../../docs/system-file.md");
    let example = doc
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap();
    let s = parse(example, "docs/system-file.md", Catalog::embedded())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.pool.vdevs[1].class, VdevClass::Log);
    assert_eq!(s.disks[7].model.seq_write_mb_s, Some(480.0));
    assert_eq!(s.pool.datasets[0].recordsize, 1 << 20);
}

#[test]
fn an_inline_cpu_may_give_only_cores_clock_and_era() {
    let text = SMALL.replace(
        "cpu = \"amd-epyc-7313p\"",
        "cpu = { cores = 8, ghz = 3.5, year = 2023 }",
    );
    let cpu = parse(&text, "s.toml", Catalog::embedded())
        .unwrap()
        .host
        .cpu;
    assert_eq!(
        (cpu.cores, cpu.threads, cpu.ghz, cpu.year),
        (8, 8, 3.5, 2023)
    );
    assert_eq!(cpu.name, "8 cores at 3.5 GHz");
    assert_eq!(cpu.simd, crate::hardware::Simd::Sse2);
    assert!(cpu.sources["simd"].starts_with("not given"));
    let e = parse(
        &SMALL.replace("cpu = \"amd-epyc-7313p\"", "cpu = { cores = 8, ghz = 3.5 }"),
        "s.toml",
        Catalog::embedded(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.toml:4:7: inline model: missing field `year`"
    );
}

/// Every example machine, written and read back, is the same machine.
#[test]
fn written_files_read_back_as_the_same_system() {
    let examples = examples();
    assert!(examples.len() >= 13, "{} examples", examples.len());
    for (name, text) in examples {
        let system = parse(&text, &name, Catalog::embedded()).unwrap();
        let written = write(&system, Catalog::embedded());
        let again = parse(&written, "written", Catalog::embedded())
            .unwrap_or_else(|e| panic!("{name}: {e}\n{written}"));
        assert_eq!(again, system, "{name}");
    }
    let default = default_system();
    let written = write(&default, Catalog::embedded());
    assert!(
        written.contains("cpu = \"intel-xeon-silver-4314\""),
        "{written}"
    );
    assert!(
        written.contains("model = \"seagate-exos-x16-16tb\""),
        "{written}"
    );
    assert_eq!(parse(&written, "w", Catalog::embedded()).unwrap(), default);
}

/// SMALL with `links` chained [[link]]s (each the parent of the next) and the controller on the
/// last of them.
fn chained_links(links: usize) -> String {
    let mut text = SMALL.replace("link = \"slot\"", &format!("link = \"l{}\"", links - 1));
    for i in 0..links {
        let parent = if i == 0 {
            String::new()
        } else {
            format!("parent = \"l{}\"\n", i - 1)
        };
        text += &format!(
            "\n[[link]]\nid = \"l{i}\"\nkind = \"pcie\"\ngen = 3\nlanes = 8\nmax_payload = 256\n{parent}"
        );
    }
    text
}

#[test]
fn a_thousand_links_parse_and_more_are_refused_at_the_first_too_many() {
    let s = parse(&chained_links(999), "s.toml", Catalog::embedded()).unwrap();
    assert_eq!(s.links.len(), 1000);
    assert_eq!(s.links[999].parent.as_deref(), Some("l997"));
    // Issue #10: 20,000 took 50 s (every chain walked from each link). Now refused up front,
    // at the 1001st.
    let text = chained_links(20_000);
    let e = parse(&text, "s.toml", Catalog::embedded()).unwrap_err();
    let l999 = text.find("[[link]]\nid = \"l999\"").unwrap();
    assert_eq!(e.line, text[..l999].lines().count() + 1);
    assert_eq!(e.message, "more than 1000 [[link]]s in one machine");
}

#[test]
fn a_missing_reference_lists_a_few_known_ids_and_echoes_the_name_on_one_line() {
    let e = parse(
        &chained_links(20).replace("link = \"l19\"", "link = \"l\\nx\""),
        "s.toml",
        Catalog::embedded(),
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "controller 'hba': link 'l\\nx' is not a [[link]] of this file (known: slot, l0, l1, l2, l3, l4, l5, l6, and 13 more)"
    );
}

#[test]
fn a_draid_where_the_release_has_none_is_refused_at_the_layout() {
    let text = SMALL
        .replace("ram = \"64GiB\"", "ram = \"64GiB\"\nzfs = \"zol-0.6.5\"")
        .replace("layout = \"raidz1-4\"", "layout = \"draid1:2d:4c\"");
    let e = parse(&text, "s.toml", Catalog::embedded()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.toml:27:10: draid1:2d:4c:0s: ZFS zol-0.6.5 has no dRAID (OpenZFS 2.1 brought it); set host.zfs to a later release"
    );
    let text = text.replace("zol-0.6.5", "2.1.0");
    assert!(parse(&text, "s.toml", Catalog::embedded()).is_ok());
}

#[test]
fn a_raidz_or_draid_log_is_refused_as_zpool_create_refuses_it() {
    for (log, kind) in [("raidz1-3", "raidz"), ("mirror-2 + draid1:2d:4c", "draid")] {
        let e = error(
            "layout = \"raidz1-4\"",
            &format!("layout = \"raidz1-4\"\nlog = \"{log}\""),
        );
        assert_eq!(
            e,
            format!("s.toml:27:7: unsupported 'log' device: {kind} (zpool create takes only disks and mirrors as log vdevs)")
        );
    }
    let text = SMALL.replace("count = 4", "count = 6").replace(
        "layout = \"raidz1-4\"",
        "layout = \"raidz1-4\"\nlog = \"mirror-2\"",
    );
    let s = parse(&text, "s.toml", Catalog::embedded()).unwrap();
    assert_eq!(s.pool.vdevs.last().unwrap().class, VdevClass::Log);
}

/// A file that names no controller or link for its disks gets the default system's path
/// (docs/assumptions.md): a SAS 9300-8i on its own PCIe 3.0 x8 slot per 8 SATA or SAS disks,
/// a PCIe 3.0 x4 link per NVMe disk, each saying it was implied.
#[test]
fn disks_without_a_controller_or_link_get_the_default_systems_path() {
    let text = r#"
name = "no path stated"
[host]
cpu = { cores = 4, ghz = 3.0, year = 2016 }
ram = "32GiB"
[[disk]]
name = "sd{}"
count = 10
model = "seagate-exos-x16-16tb"
[[disk]]
name = "nvme0"
model = "samsung-pm9a3-3.84tb"
[pool]
layout = "raidz2-10"
special = "stripe-1"
"#;
    let s = parse(text, "s.toml", Catalog::embedded()).unwrap();
    let ids: Vec<&str> = s.controllers.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["implied-hba0", "implied-hba1"]);
    assert!(s.controllers.iter().all(|c| c.model.id == "lsi-sas3008"));
    let attached = |name: &str| &s.disks.iter().find(|d| d.name == name).unwrap().attach;
    assert_eq!(attached("sd7"), &Attach::Controller("implied-hba0".into()));
    assert_eq!(attached("sd8"), &Attach::Controller("implied-hba1".into()));
    assert_eq!(
        attached("nvme0"),
        &Attach::Link("nvme0 (implied link)".into())
    );
    let slot = s.links.iter().find(|l| l.id == "implied-slot1").unwrap();
    assert_eq!(
        slot.kind,
        LinkKind::Pcie {
            gen: 3,
            lanes: 8,
            max_payload: 256
        }
    );
    assert!(s.links.iter().all(|l| l.source.as_deref() == Some(IMPLIED)));
    // Written out, the path is explicit and reads back as the same machine.
    let written = write(&s, Catalog::embedded());
    assert_eq!(parse(&written, "w", Catalog::embedded()).unwrap(), s);
    // A part of the file may not take an implied part's name.
    let clash = text.replace(
        "[[disk]]\nname = \"nvme0\"",
        "[[link]]\nid = \"implied-slot0\"\nkind = \"pcie\"\ngen = 3\nlanes = 8\n[[disk]]\nname = \"nvme0\"",
    );
    let e = parse(&clash, "s.toml", Catalog::embedded()).unwrap_err();
    assert_eq!(
        e.message,
        "link 'implied-slot0' is the name of an implied link: rename it"
    );
}

/// `controller = "onboard"` with no controller of that name: the board's chipset SATA, taken
/// to be an Intel C246's AHCI (8 SATA 6 Gb/s ports) behind DMI 3.0, a PCIe 3.0 x4 link with
/// 128-byte payloads (docs/assumptions.md), both saying they were implied.
#[test]
fn onboard_sata_is_an_intel_pch_behind_dmi_3() {
    let text = r#"
name = "onboard"
[host]
cpu = { cores = 4, ghz = 3.0, year = 2019 }
ram = "32GiB"
[[disk]]
name = "ada{}"
count = 6
model = "seagate-exos-x16-16tb"
controller = "onboard"
[pool]
layout = "raidz2-6"
"#;
    let s = parse(text, "s.toml", Catalog::embedded()).unwrap();
    assert_eq!(s.controllers.len(), 1);
    let c = &s.controllers[0];
    assert_eq!(
        (c.id.as_str(), c.model.id.as_str()),
        ("onboard", "intel-c246-ahci")
    );
    assert_eq!((c.model.ports, c.model.port_gbps), (8, 6.0));
    assert_eq!(
        c.upstream,
        Upstream::Link("onboard (implied uplink)".into())
    );
    assert_eq!(
        s.links[0].kind,
        LinkKind::Pcie {
            gen: 3,
            lanes: 4,
            max_payload: 128
        }
    );
    assert!(s.links[0]
        .source
        .as_deref()
        .unwrap()
        .starts_with(IMPLIED_ONBOARD));
    assert!(s
        .disks
        .iter()
        .all(|d| d.attach == Attach::Controller("onboard".into())));
    // Nine disks do not fit its eight ports; an NVMe disk has no SATA port.
    let nine = text
        .replace("count = 6", "count = 9")
        .replace("raidz2-6", "raidz2-9");
    let e = parse(&nine, "s.toml", Catalog::embedded()).unwrap_err();
    assert!(e.message.contains("onboard"), "{}", e.message);
    let nvme = text.replace("seagate-exos-x16-16tb", "samsung-pm9a3-3.84tb");
    let e = parse(&nvme, "s.toml", Catalog::embedded()).unwrap_err();
    assert_eq!(
        e.message,
        "the onboard controller has sata ports; this disk is nvme"
    );
}

/// A small file around `host` and `dataset` lines.
fn small(host: &str, pool: &str, dataset: &str) -> Result<System, FileError> {
    let text = format!(
        "name = \"t\"\n[host]\n{host}\n[[disk]]\nname = \"d{{}}\"\ncount = 2\nmodel = \"seagate-ironwolf-12tb\"\n\
         [pool]\nlayout = \"mirror-2\"\n{pool}\n[[dataset]]\nname = \"tank\"\n{dataset}\n"
    );
    parse(&text, "t.toml", Catalog::embedded())
}

#[test]
fn appliances_set_what_their_pools_get() {
    let s = small(
        "cpu = \"intel-xeon-e-2336\"\nram = \"32GiB\"\nappliance = \"truenas-scale-24.04\"",
        "",
        "",
    )
    .unwrap();
    assert_eq!(s.host.zfs, "openzfs-2.2".parse().unwrap());
    assert_eq!(s.pool.ashift, 12);
    assert_eq!(
        s.pool.datasets[0].compression,
        crate::dataset::Compression::Lz4
    );
    // What the file says wins over the appliance's defaults.
    let given = small(
        "cpu = \"intel-xeon-e-2336\"\nram = \"32GiB\"\nappliance = \"freenas-9.10\"\nzfs = \"freebsd-10.2\"",
        "ashift = 13",
        "compression = \"off\"",
    )
    .unwrap();
    assert_eq!(given.host.zfs, "freebsd-10.2".parse().unwrap());
    assert_eq!(given.pool.ashift, 13);
    assert_eq!(
        given.pool.datasets[0].compression,
        crate::dataset::Compression::Off
    );
    let bad = small(
        "cpu = \"intel-xeon-e-2336\"\nram = \"32GiB\"\nappliance = \"unraid\"",
        "",
        "",
    )
    .unwrap_err();
    assert!(bad.to_string().contains("t.toml:"), "{bad}");
}

#[test]
fn cpu_and_ram_by_the_year_of_the_source() {
    let s = small("cpu = { year = 2015 }\nram = { year = 2015 }", "", "").unwrap();
    assert_eq!(s.host.cpu.id, "assumed-cpu-2012");
    assert_eq!(s.host.ram_bytes, 16 << 30);
    let new = small("cpu = { year = 2026 }\nram = { year = 2021 }", "", "").unwrap();
    assert_eq!(new.host.cpu.id, "assumed-cpu-2024");
    assert_eq!(new.host.ram_bytes, 64 << 30);
    assert!(small("cpu = { year = 15 }\nram = \"8GiB\"", "", "").is_err());
}

#[test]
fn dataset_properties_of_modern_pools() {
    let s = small(
        "cpu = \"intel-xeon-e-2336\"\nram = \"32GiB\"",
        "",
        "special_small_blocks = \"64K\"\nprimarycache = \"metadata\"\nencryption = \"aes-256-gcm\"\nvolblocksize = \"16K\"",
    )
    .unwrap();
    let d = &s.pool.datasets[0];
    assert_eq!(d.special_small_blocks, 64 << 10);
    assert_eq!(d.volblocksize, Some(16 << 10));
    assert_eq!(d.primarycache, crate::dataset::PrimaryCache::Metadata);
    assert_eq!(d.encryption, crate::dataset::Encryption::Gcm { bits: 256 });
    for bad in [
        "special_small_blocks = \"48K\"",
        "primarycache = \"some\"",
        "encryption = \"rot13\"",
        "volblocksize = \"256K\"",
        "volblocksize = \"12K\"",
    ] {
        let e = small("cpu = \"intel-xeon-e-2336\"\nram = \"32GiB\"", "", bad).unwrap_err();
        assert!(e.to_string().starts_with("t.toml:"), "{e}");
    }
    // The system file written back reads the same.
    let again = parse(
        &write(&s, Catalog::embedded()),
        "again.toml",
        Catalog::embedded(),
    )
    .unwrap();
    assert_eq!(again.pool.datasets[0], s.pool.datasets[0]);
}

#[test]
fn the_clemtibs_nas_keeps_its_special_and_log_devices() {
    let s = example("clemtibs-n6005-special-slog.toml");
    let classes: Vec<VdevClass> = s.pool.vdevs.iter().map(|v| v.class).collect();
    assert_eq!(
        classes,
        [VdevClass::Normal, VdevClass::Special, VdevClass::Log]
    );
    assert_eq!(s.pool.datasets[0].special_small_blocks, 64 << 10);
    assert_eq!(s.host.zfs, "openzfs-2.2".parse().unwrap());
}

/// Pajkastare's USB 3 G-DRIVE: the HC530 standing in for its unnamed disk (267 MB/s at the
/// outer tracks, bare) is held to the range's stated 200 MB/s; its spindle stays the
/// catalog's.
#[test]
fn a_g_drives_stand_in_disk_is_held_to_the_ranges_rate() {
    let s = example("pajkastare-2024-usb3-hdd.toml");
    let d = &s.disks[0];
    assert_eq!(s.controllers[0].model.enclosure_mb_s, Some(200.0));
    assert_eq!((d.model.seq_outer_mb_s, d.model.rpm), (200.0, Some(7200)));
    assert!(d.model.sources["seq_outer_mb_s"].contains("bright-publishing.com"));
    let bare = Catalog::embedded().disk("wd-ultrastar-hc530-14tb").unwrap();
    assert_eq!(bare.seq_outer_mb_s, 267.0);
}
