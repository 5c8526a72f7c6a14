use super::*;
use crate::hardware::{ControllerKind, Interface, LinkKind, Medium, Simd};

#[test]
fn embedded_catalog_parses_with_seed_and_current_hardware() {
    let c = Catalog::embedded();
    for id in [
        "samsung-hd753lj",
        "seed001-sata-500gb",
        "seagate-st3000dm001",
        "hitachi-dk32ej-36nc",
    ] {
        assert!(c.disk(id).is_ok(), "{id}");
    }
    for id in [
        "amd-sb600-ahci",
        "sil3132",
        "sil3124",
        "seed001-pcix-sata",
        "intel-ich10r-ahci",
        "lsi-sas3008",
    ] {
        assert!(c.controller(id).is_ok(), "{id}");
    }
    for id in [
        "pci-32-33",
        "pcix-64-133",
        "amd-alink-express-2",
        "intel-dmi-1",
        "ultra320-scsi",
    ] {
        assert!(c.link(id).is_ok(), "{id}");
    }
    assert_eq!(c.cpu("amd-athlon64-x2-4000").unwrap().cores, 2);
    assert_eq!(c.cpu("intel-core-i7-920").unwrap().threads, 8);
    let current: Vec<&DiskModel> = c
        .disks
        .values()
        .filter(|d| !d.sources.values().any(|s| s.contains("seed")))
        .collect();
    assert!(current.len() >= 40, "{} current drives", current.len());
    for medium in [Medium::Hdd, Medium::Ssd, Medium::Nvme] {
        let n = current.iter().filter(|d| d.medium == medium).count();
        assert!(n >= 8, "{n} current {medium:?} drives");
    }
    let hdd_tb: Vec<u64> = current
        .iter()
        .filter(|d| d.medium == Medium::Hdd)
        .map(|d| d.capacity_bytes / 1_000_000_000_000)
        .collect();
    assert!(
        hdd_tb.iter().all(|&tb| (4..=24).contains(&tb)),
        "{hdd_tb:?}"
    );
}

#[test]
fn seed_figures_are_the_seeds() {
    let c = Catalog::embedded();
    let hd753 = c.disk("samsung-hd753lj").unwrap();
    assert_eq!(hd753.capacity_bytes, 1_465_149_168 * 512);
    assert_eq!(hd753.seq_outer_mb_s, 81.0);
    assert_eq!(hd753.rpm, Some(7200));
    let st3000 = c.disk("seagate-st3000dm001").unwrap();
    assert_eq!((st3000.logical_sector, st3000.physical_sector), (512, 4096));
    let rates: Vec<f64> = st3000.zones.iter().map(|z| z.mb_s).collect();
    assert_eq!(rates, [186.5, 207.2, 193.9, 155.5, 111.3]);
    assert_eq!(st3000.zones[1].offset_bytes, 500 << 30);
    let sil3124 = c.controller("sil3124").unwrap();
    assert_eq!(sil3124.port_limit_mb_s, Some(87.0));
    assert!(!sil3124.command_queueing);
    assert_eq!(
        c.disk("hitachi-dk32ej-36nc").unwrap().interface,
        Interface::Scsi
    );
    assert_eq!(
        c.disk("seed001-sata-500gb").unwrap().random_read_iops,
        Some(90.0)
    );
}

#[test]
fn every_figure_has_a_source_and_capacities_are_whole_sectors() {
    let c = Catalog::embedded();
    for d in c.disks.values() {
        assert!(
            d.capacity_bytes % u64::from(d.logical_sector) == 0,
            "{}",
            d.id
        );
        let figures = toml::Table::try_from(d).unwrap();
        for key in figures
            .keys()
            .filter(|k| !["id", "vendor", "model", "sources"].contains(&k.as_str()))
        {
            assert!(
                d.sources.contains_key(key) || d.sources.contains_key(DEFAULT_SOURCE),
                "{} {key}",
                d.id
            );
        }
    }
    for ctl in c.controllers.values() {
        assert!(ctl.sources.contains_key(DEFAULT_SOURCE), "{}", ctl.id);
    }
    for link in c.links.values() {
        assert!(link.sources.contains_key(DEFAULT_SOURCE), "{}", link.id);
    }
    for cpu in c.cpus.values() {
        assert!(cpu.sources.contains_key(DEFAULT_SOURCE), "{}", cpu.id);
    }
}

/// The number of `unit`s (e.g. "sectors of 512 B") a source line states, written with commas.
fn stated_count(source: &str, unit: &str) -> Option<u64> {
    let before = &source[..source.find(unit)?];
    let digits = before
        .trim_end()
        .rsplit(|c: char| !(c.is_ascii_digit() || c == ','))
        .next()?;
    digits.replace(',', "").parse().ok()
}

/// The IDEMA LBA1-03 count of 512-byte sectors for a drive sold as `gb` decimal gigabytes.
fn idema_lba(gb: u64) -> u64 {
    97_696_368 + 1_953_504 * (gb - 50)
}

#[test]
fn capacities_are_the_sector_counts_their_sources_state() {
    let c = Catalog::embedded();
    let mut idema = 0;
    for d in c.disks.values() {
        let Some(source) = d.sources.get("capacity_bytes") else {
            continue;
        };
        for unit in [" sectors of 512 B", " LBAs of 512 B"] {
            if let Some(count) = stated_count(source, unit) {
                assert_eq!(count * 512, d.capacity_bytes, "{}: {source}", d.id);
                assert_eq!(d.logical_sector, 512, "{}", d.id);
            }
        }
        // "IDEMA LBA1-03 count for 3.84 TB": the count the formula gives for that size.
        if let Some(rest) = source.split("IDEMA LBA1-03 count for ").nth(1) {
            let mut words = rest.split([' ', ':']);
            let size: f64 = words.next().unwrap().parse().unwrap();
            let gb = match words.next().unwrap() {
                "GB" => size,
                "TB" => size * 1000.0,
                other => panic!("{}: unit {other}", d.id),
            };
            assert_eq!(
                d.capacity_bytes,
                idema_lba(gb.round() as u64) * 512,
                "{}",
                d.id
            );
            idema += 1;
        }
    }
    assert!(idema >= 25, "{idema} capacities from the IDEMA count");
}

#[test]
fn common_hardware_reads_back_exactly() {
    let c = Catalog::embedded();
    // A NAS disk: 512e, 5400 rpm class, no published inner rate.
    let red = c.disk("wd-red-4tb").unwrap();
    assert_eq!(red.capacity_bytes, 4_000_787_030_016);
    assert_eq!((red.logical_sector, red.physical_sector), (512, 4096));
    assert_eq!(red.rpm, Some(5400));
    assert_eq!(red.seq_outer_mb_s, 150.0);
    assert_eq!(red.seq_inner_mb_s, 150.0 * INNER_TRACK_FRACTION);
    assert_eq!(red.uer_per_bit, Some(1e-14));
    assert_eq!(red.avg_seek_read_ms, None);
    // Large disks: the sector counts the drives report, above the IDEMA formula's range.
    let hc530 = c.disk("wd-ultrastar-hc530-14tb").unwrap();
    assert_eq!(hc530.capacity_bytes, 27_344_764_928 * 512);
    assert_eq!(hc530.afr_pct, Some(0.35));
    assert_eq!(
        c.disk("seagate-ironwolf-12tb").unwrap().capacity_bytes,
        23_437_770_752 * 512
    );
    // Shingled desktop disks are marked, with the source that says so; CMR ones are not.
    for id in ["seagate-st4000dm004", "seagate-st8000dm004"] {
        let d = c.disk(id).unwrap();
        assert_eq!(d.shingled, Some(true), "{id}");
        assert!(d.sources["shingled"].contains("SMR"), "{id}");
        assert_eq!(d.mtbf_hours, None, "{id}");
    }
    assert_eq!(c.disk("wd-red-4tb").unwrap().shingled, None);
    // SATA flash: Samsung reports 512-byte physical sectors, Crucial 4 KiB.
    let evo = c.disk("samsung-860-evo-1tb").unwrap();
    assert_eq!(evo.capacity_bytes, 1_953_525_168 * 512);
    assert_eq!((evo.logical_sector, evo.physical_sector), (512, 512));
    assert_eq!(evo.random_read_iops, Some(98_000.0));
    assert_eq!(evo.random_write_iops, Some(90_000.0));
    assert_eq!((evo.rpm, evo.queue_depth), (None, 32));
    assert_eq!(evo.seq_inner_mb_s, evo.seq_outer_mb_s);
    let mx500 = c.disk("crucial-mx500-1tb").unwrap();
    assert_eq!(
        (mx500.physical_sector, mx500.seq_write_mb_s),
        (4096, Some(510.0))
    );
    let s3700 = c.disk("intel-dc-s3700-400gb").unwrap();
    assert_eq!(s3700.capacity_bytes, 400_088_457_216);
    assert_eq!(s3700.random_read_iops, Some(75_000.0));
    assert_eq!(s3700.uer_per_bit, Some(1e-17));
    // NVMe: the link rate, the spec's queue, the maker's IOPS.
    let p4800x = c.disk("intel-optane-p4800x-375gb").unwrap();
    assert_eq!(p4800x.capacity_bytes, 732_585_168 * 512);
    assert_eq!(
        (p4800x.interface, p4800x.interface_gbps),
        (Interface::Nvme, 32.0)
    );
    assert_eq!(p4800x.random_read_iops, Some(550_000.0));
    assert_eq!(p4800x.queue_depth, 65_536);
    let pro = c.disk("samsung-990-pro-2tb").unwrap();
    assert_eq!(pro.capacity_bytes, 2_000_398_934_016);
    assert_eq!(
        (pro.seq_outer_mb_s, pro.random_read_iops),
        (7450.0, Some(1_400_000.0))
    );
    // Controllers: a 24-port HBA, a SATA card, an expander's disk ports net of its uplink.
    let hba = c.controller("lsi-sas3224").unwrap();
    assert_eq!((hba.ports, hba.port_gbps), (24, 12.0));
    let asm = c.controller("asmedia-asm1166").unwrap();
    assert_eq!((asm.ports, asm.interface), (6, Interface::Sata));
    assert_eq!(asm.host_interface, "PCIe 3.0 x2");
    let res = c.controller("intel-res2sv240").unwrap();
    assert_eq!(res.kind, ControllerKind::Expander);
    assert_eq!(res.ports + res.uplink_lanes.unwrap(), 24);
    assert_eq!(
        c.controller("intel-c621-sata").unwrap().ports
            + c.controller("intel-c621-ssata").unwrap().ports,
        14
    );
    // CPUs and a chipset uplink.
    let epyc = c.cpu("amd-epyc-9124").unwrap();
    assert_eq!((epyc.cores, epyc.threads, epyc.year), (16, 32, 2022));
    assert_eq!((epyc.simd, epyc.sha_ni), (Simd::Avx512, true));
    assert_eq!(epyc.memory_mb_s, Some(460_800.0));
    let atom = c.cpu("intel-atom-c3758").unwrap();
    assert_eq!((atom.simd, atom.sha_ni), (Simd::Sse2, true));
    assert_eq!(
        c.cpu("intel-xeon-e5-2620-v2").unwrap().memory_mb_s,
        Some(51_200.0)
    );
    assert_eq!(
        c.link("amd-x570-uplink").unwrap().kind,
        LinkKind::Pcie {
            gen: 4,
            lanes: 4,
            max_payload: 128
        }
    );
}

#[test]
fn cpu_memory_bandwidth_is_channels_times_rate() {
    // Every named CPU's source states "N x R MT/s x 8 B" or, for the older entries, its
    // channels; where it states the product, the figure is that product.
    for cpu in Catalog::embedded().cpus.values() {
        let (Some(mb_s), Some(source)) = (cpu.memory_mb_s, cpu.sources.get("memory_mb_s")) else {
            continue;
        };
        let Some(at) = source.find(" MT/s x 8 B") else {
            continue;
        };
        let numbers: Vec<f64> = source[..at]
            .rsplit(": ")
            .next()
            .unwrap()
            .split(" x ")
            .map(|n| n.trim().parse().unwrap())
            .collect();
        assert_eq!(numbers.len(), 2, "{}: {source}", cpu.id);
        assert_eq!(numbers[0] * numbers[1] * 8.0, mb_s, "{}", cpu.id);
    }
}

#[test]
fn unpublished_inner_rates_are_estimated_and_say_so() {
    let c = Catalog::embedded();
    let x16 = c.disk("seagate-exos-x16-16tb").unwrap();
    assert_eq!(x16.seq_inner_mb_s, 261.0 * INNER_TRACK_FRACTION);
    assert!(x16.sources["seq_inner_mb_s"].contains("estimated"));
    let pm893 = c.disk("samsung-pm893-3.84tb").unwrap();
    assert_eq!(pm893.seq_inner_mb_s, pm893.seq_outer_mb_s);
    // A measured inner rate is kept as given.
    assert_eq!(c.disk("seagate-st3000dm001").unwrap().seq_inner_mb_s, 111.3);
}

#[test]
fn lookup_errors_suggest_near_ids() {
    let e = Catalog::embedded().disk("seagate-exos-x16").unwrap_err();
    assert_eq!(e.near, vec!["seagate-exos-x16-16tb"]);
    assert_eq!(
        e.to_string(),
        "no disk 'seagate-exos-x16' in the catalog; did you mean 'seagate-exos-x16-16tb'? (`zpoolsim catalog --kind disk` lists them)"
    );
    let e = Catalog::embedded().cpu("nothing-like-it").unwrap_err();
    assert!(e.near.is_empty());
}

const USER_DISK: &str = r#"
[[disk]]
id = "my-disk"
vendor = "Acme"
model = "Spinner 8"
medium = "hdd"
interface = "sata"
interface_gbps = 6.0
capacity_bytes = 8_001_563_222_016
logical_sector = 512
physical_sector = 4096
rpm = 7200
seq_outer_mb_s = 200.0
queue_depth = 32
sources = { default = "my own dd runs, 2026" }
"#;

#[test]
fn user_files_add_and_override_entries() {
    let mut c = Catalog::embedded().clone();
    c.merge_file(USER_DISK, "mine.toml").unwrap();
    assert_eq!(
        c.disk("my-disk").unwrap().seq_inner_mb_s,
        110.00000000000001
    );
    let before = c.disks.len();
    let faster = USER_DISK
        .replace("my-disk", "samsung-hd753lj")
        .replace("200.0", "97.0");
    c.merge_file(&faster, "mine.toml").unwrap();
    assert_eq!(c.disks.len(), before);
    assert_eq!(c.disk("samsung-hd753lj").unwrap().seq_outer_mb_s, 97.0);
}

fn merge_error(text: &str) -> String {
    Catalog::default()
        .merge_file(text, "mine.toml")
        .unwrap_err()
        .to_string()
}

#[test]
fn user_file_errors_are_located() {
    // Figures without a source: the error is at the first of them.
    let e = merge_error(&USER_DISK.replace(
        "sources = { default = \"my own dd runs, 2026\" }",
        "sources = { rpm = \"label\" }",
    ));
    assert!(
        e.starts_with("mine.toml:9:1: disk entry: no source for capacity_bytes, "),
        "{e}"
    );
    // A wrong type: at the key, named.
    let e = merge_error(&USER_DISK.replace("rpm = 7200", "rpm = \"fast\""));
    assert_eq!(
        e,
        "mine.toml:12:1: disk entry: rpm: invalid type: string \"fast\", expected u32"
    );
    // Issue #10: a bad outer rate was blamed on the inner rate filled in from it, at the
    // [[disk]] header; an AFR of 200% was taken, to fail later with no place.
    let e = merge_error(&USER_DISK.replace("seq_outer_mb_s = 200.0", "seq_outer_mb_s = -200.0"));
    assert_eq!(
        e,
        "mine.toml:13:1: disk entry: seq_outer_mb_s -200 is out of range: give 1 to 10000000 MB/s (far around any device, bus or memory)"
    );
    // Issue #18: a rate of 1e-300 MB/s made a resilver of 1e306 hours.
    let e = merge_error(&USER_DISK.replace("seq_outer_mb_s = 200.0", "seq_outer_mb_s = 1e-300"));
    assert!(e.starts_with("mine.toml:13:1: disk entry: seq_outer_mb_s 1e-300 is out of range: give 1 to 10000000 MB/s"), "{e}");
    let e =
        merge_error(&USER_DISK.replace("queue_depth = 32", "queue_depth = 32\nafr_pct = 200.0"));
    assert_eq!(
        e,
        "mine.toml:15:1: disk entry: afr_pct 200 is out of range: give 0.01 to 99 % a year (the percentage of disks failing in a year, below every disk)"
    );
    let e = merge_error(&USER_DISK.replace("200.0", "1e300"));
    assert_eq!(
        e,
        "mine.toml:13:1: disk entry: seq_outer_mb_s 1e300 is out of range: give 1 to 10000000 MB/s (far around any device, bus or memory)"
    );
    let e = merge_error(&USER_DISK.replace("sources = {", "sources = { rpm = \" \", "));
    assert_eq!(e, "mine.toml:15:13: disk entry: sources.rpm is empty");
    // An unknown top-level table, at its header.
    let e = merge_error("[[disks]]\nid = \"x\"\n");
    assert!(e.starts_with("mine.toml:1:3: unknown field `disks`"), "{e}");
    // Syntax.
    let e = merge_error("[[cpu]]\nid = \n");
    assert!(e.starts_with("mine.toml:2:6:"), "{e}");
    // The same id twice in one file.
    let e = merge_error(&format!("{USER_DISK}{USER_DISK}"));
    assert!(e.contains("disk 'my-disk' is defined twice"), "{e}");
    assert!(e.starts_with("mine.toml:17:1:"), "{e}");
    // A source key that names no figure.
    let e = merge_error(&USER_DISK.replace("sources = {", "sources = { rmp = \"x\", "));
    assert!(e.contains("sources.rmp names no figure"), "{e}");
    // The rate past an SLC cache is flash's, and not above the drive's own write rate.
    let past = "queue_depth = 32\nsustained_write_mb_s = 150.0";
    let e = merge_error(&USER_DISK.replace("queue_depth = 32", past));
    assert!(e.contains("not a hard disk's"), "{e}");
    let flash = USER_DISK
        .replace("medium = \"hdd\"", "medium = \"ssd\"")
        .replace("rpm = 7200\n", "seq_write_mb_s = 100.0\n");
    let e = merge_error(&flash.replace("queue_depth = 32", past));
    assert!(e.contains("above the drive's sequential write rate"), "{e}");
}

/// A disk entry that states only what identifies it and its sequential rate takes its
/// interface's documented defaults (docs/assumptions.md), each cited as not stated; what it
/// states is kept.
#[test]
fn unstated_interface_figures_take_the_interface_defaults_and_say_so() {
    let text = r#"
[[disk]]
id = "bare-ssd"
model = "Some SSD"
medium = "ssd"
interface = "sata"
capacity_bytes = 500_107_862_016
seq_outer_mb_s = 540
sources = { default = "its box" }

[[disk]]
id = "bare-sas"
model = "Some SAS disk"
medium = "hdd"
interface = "sas"
capacity_bytes = 4_000_787_030_016
logical_sector = 4096
rpm = 7200
seq_outer_mb_s = 200
sources = { default = "its label" }
"#;
    let mut c = Catalog::embedded().clone();
    c.merge_file(text, "mine.toml").unwrap();
    let ssd = c.disk("bare-ssd").unwrap();
    assert_eq!(
        (
            ssd.interface_gbps,
            ssd.queue_depth,
            ssd.logical_sector,
            ssd.physical_sector
        ),
        (6.0, 32, 512, 512)
    );
    assert_eq!(ssd.vendor, "(not stated)");
    assert_eq!(
        ssd.sources["queue_depth"],
        "not stated: 32 by default (docs/assumptions.md)"
    );
    assert_eq!(
        ssd.sources["physical_sector"],
        "not stated: the logical sector by default (docs/assumptions.md)"
    );
    let sas = c.disk("bare-sas").unwrap();
    assert_eq!(
        (
            sas.interface_gbps,
            sas.queue_depth,
            sas.logical_sector,
            sas.physical_sector
        ),
        (12.0, 64, 4096, 4096)
    );
    // What the entry states stays cited by its own source.
    assert!(!sas.sources.contains_key("logical_sector"));
}

#[test]
fn a_boost_clock_is_at_least_the_base_clock() {
    let ryzen = Catalog::embedded().cpu("amd-ryzen-5-5600g").unwrap();
    assert_eq!((ryzen.ghz, ryzen.boost_ghz), (3.9, Some(4.4)));
    let cpu = "[[cpu]]\nid = \"slow-boost\"\nname = \"x\"\ncores = 4\nthreads = 4\nghz = 3.0\n\
               boost_ghz = 2.5\nsimd = \"avx2\"\nsha_ni = false\nyear = 2020\n\
               sources = { default = \"a test\" }\n";
    let e = merge_error(cpu);
    assert!(e.contains("boost_ghz is below ghz"), "{e}");
    assert!(merge_error(&cpu.replace("2.5", "200.0")).contains("boost_ghz"));
}
