//! Whole machines described from captured outputs: the system file `discover` writes must read
//! back through the model's parser with the disks, links, controllers and pool the tools showed;
//! calibrate's refusals, job and zones on captured devices and a captured fio output.

use crate::describe::{describe, Captured, Leaf};
use crate::{calibrate, MeasureError};
use model::system::Attach;
use model::{Catalog, System};
use parse::lsblk;
use std::collections::BTreeMap;

fn fixture(path: &str) -> String {
    let file = format!(
        "{}/../parse/tests/fixtures/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn read_back(pool: &str, c: &Captured) -> (String, System) {
    let text = describe(pool, None, c, Catalog::embedded()).unwrap();
    let system = model::system_file::parse(&text, "discovered", Catalog::embedded())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    (text, system)
}

fn blocks(names: &[&str]) -> BTreeMap<String, Leaf> {
    names
        .iter()
        .map(|n| {
            (
                n.to_string(),
                Leaf::Block(n.trim_start_matches("/dev/").to_string()),
            )
        })
        .collect()
}

/// This machine: a zfs-fuse pool on six 256 MiB files (raidz1-3 + mirror-2 + a spare).
#[test]
fn a_zfs_fuse_pool_on_files() {
    let leaves = (0..6)
        .map(|i| (format!("/tmp/zf/d{i}"), Leaf::File(268_435_456)))
        .collect();
    let c = Captured {
        zpool_status: fixture("zpool/zfs-fuse-status.txt"),
        zfs_get: Some(fixture("zpool/zfs-fuse-zfs-get.txt")),
        ashift: Some(fixture("zpool/zfs-fuse-get-ashift.txt")),
        zdb: Some(fixture("zpool/zfs-fuse-zdb-C.txt")),
        cpuinfo: Some(fixture("proc/this-vm-cpuinfo.txt")),
        meminfo: Some(fixture("proc/this-vm-meminfo.txt")),
        pool_versions: Some("This system is currently running ZFS pool version 23.\n".into()),
        sysfs: fixture("sysfs/this-vm.txt"),
        leaves,
        ..Captured::default()
    };
    let (text, s) = read_back("zt", &c);
    assert_eq!(s.host.zfs, model::ZfsRelease::ZfsFuse);
    assert_eq!(s.host.ram_bytes, 24_684_092 * 1024);
    assert_eq!(
        (s.host.cpu.cores, s.host.cpu.simd),
        (2, model::hardware::Simd::Avx512)
    );
    assert_eq!(s.pool.ashift, 12, "zpool get says 0, zdb -C says 12");
    assert_eq!((s.pool.spares, s.pool.vdevs.len()), (1, 2));
    assert_eq!(s.pool.vdevs[0].layout.to_string(), "raidz1-3");
    assert_eq!(s.pool.vdevs[1].layout.to_string(), "mirror-2");
    assert_eq!(s.disks.len(), 6);
    assert_eq!(s.disks[5].name, "/tmp/zf/d5");
    assert_eq!(s.disks[0].model.capacity_bytes, 268_435_456);
    assert!(!s.pool.vdevs[0].leaf.whole_disk);
    assert!(text.contains("# assumed: files and virtual disks go through the host's own I/O path"));
    assert!(text.contains("# compression=off"));
}

/// Ten SAS disks behind an expander on a SAS3008 (a built /sys, see the fixtures' README).
#[test]
fn disks_behind_an_expander_get_a_port_each() {
    let names = [
        "sdc", "sdd", "sde", "sdf", "sdg", "sdh", "sdi", "sdj", "sdk", "sdl",
    ];
    let c = Captured {
        zpool_status: fixture("built/expander-status.txt"),
        lsblk: Some(fixture("built/expander-lsblk.json")),
        sysfs: fixture("built/expander-sysfs.txt"),
        leaves: blocks(&names),
        ..Captured::default()
    };
    let (text, s) = read_back("big", &c);
    assert_eq!(s.pool.vdevs[0].layout.to_string(), "raidz2-10");
    assert_eq!(s.controllers.len(), 1);
    let hba = &s.controllers[0];
    assert_eq!((hba.id.as_str(), hba.model.ports), ("0000:03:00.0", 10));
    assert_eq!(hba.model.interface, model::hardware::Interface::Sas);
    assert!(text.contains("behind the SAS expander expander-0:0 (LSI SAS2X36)"));
    let link = &s.links[0];
    assert_eq!(
        link.kind,
        model::hardware::LinkKind::Pcie {
            gen: 3,
            lanes: 8,
            max_payload: 256
        }
    );
    assert!(text.contains("max_payload = 256    # assumed: lspci -vv showed no DevCtl MaxPayload"));
    let d = &s.disks[0];
    assert_eq!(
        (d.model.capacity_bytes, d.model.physical_sector),
        (4_000_787_030_016, 4096)
    );
    assert_eq!((d.model.rpm, d.model.queue_depth), (Some(7200), 254));
    assert!(s.pool.vdevs[0].leaf.whole_disk);
}

/// The util-linux dump of a desktop (Kingston SATA SSD, WD SATA HDD on the chipset's AHCI) with a
/// built pool: a mirror of one partition of each.
#[test]
fn partitions_of_a_real_machine() {
    let c = Captured {
        zpool_status: "  pool: desk\n state: ONLINE\nconfig:\n\n\tNAME\tSTATE\n\tdesk\tONLINE\n\t  mirror-0\tONLINE\n\t    /dev/sda3\tONLINE\n\t    /dev/sdb1\tONLINE\n".into(),
        lsblk: Some(fixture("lsblk/multi-devs-bcachefs.json")),
        sysfs: fixture("sysfs/multi-devs-bcachefs.txt"),
        leaves: blocks(&["/dev/sda3", "/dev/sdb1"]),
        ..Captured::default()
    };
    let (text, s) = read_back("desk", &c);
    assert_eq!(s.disks[0].model.capacity_bytes, 134_753_550_336);
    assert_eq!(s.disks[1].model.capacity_bytes, 80_025_313_280);
    assert_eq!(s.disks[0].model.medium, model::hardware::Medium::Ssd);
    assert_eq!(
        (s.disks[1].model.medium, s.disks[1].model.rpm),
        (model::hardware::Medium::Hdd, Some(7200))
    );
    assert!(!s.pool.vdevs[0].leaf.whole_disk);
    assert_eq!(s.pool.vdevs[0].leaf.capacity_bytes, 80_025_313_280);
    assert_eq!(s.disks[0].attach, Attach::Controller("0000:00:1f.2".into()));
    assert!(text.contains("7200 rpm (the disk is rotational but did not say its speed)"));
}

/// A drive the catalog knows (by its model number and exact capacity) on a controller the
/// catalog knows by its PCI IDs (the ICH10 AHCI of pciutils' ASUS P6T6 dump).
#[test]
fn catalog_models_are_named() {
    let lsblk = r#"{"blockdevices": [{"name": "sda", "type": "disk", "size": 4000787030016, "rota": true, "log-sec": 512, "phy-sec": 4096, "model": "WDC WD40EFZX-68AWUN0", "tran": "sata"}]}"#;
    let c = Captured {
        zpool_status: "  pool: one\n state: ONLINE\nconfig:\n\n\tNAME\tSTATE\n\tone\tONLINE\n\t  sda\tONLINE\n".into(),
        lsblk: Some(lsblk.into()),
        sysfs: "/sys/block/sda\t-> ../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda\n".into(),
        lspci: Some(fixture("lspci/asus-p6t6.txt")),
        leaves: blocks(&["sda"]),
        ..Captured::default()
    };
    let (text, s) = read_back("one", &c);
    assert!(text.contains("model = \"wd-red-plus-4tb\""), "{text}");
    assert!(text.contains("model = \"intel-ich10r-ahci\""), "{text}");
    assert_eq!(s.pool.vdevs[0].layout.to_string(), "stripe-1");
}

#[test]
fn an_unknown_pool_is_refused() {
    let c = Captured {
        zpool_status: fixture("zpool/zfs-fuse-status.txt"),
        ..Captured::default()
    };
    let e = describe("tank", None, &c, Catalog::embedded()).unwrap_err();
    assert_eq!(e.to_string(), "no pool 'tank' in zpool status");
}

/// An OpenZFS 2.x pool of every class with dRAID (a built status, see the fixtures' README):
/// the layout strings the model reads, the distributed spare left in the dRAID, a hot spare
/// and a cache device counted, every disk in fill order.
#[test]
fn draid_with_special_log_cache_and_spares() {
    let status = fixture("built/openzfs-draid-classes-status.txt");
    let leaves = parse::zpool_status::parse(&status)[0]
        .leaves_in_fill_order()
        .iter()
        .map(|(_, l)| (l.to_string(), Leaf::Missing))
        .collect();
    let list: String = (b'a'..=b'm')
        .map(|c| format!("/dev/sd{}1\t4000776716288\n", c as char))
        .chain((0..5).map(|i| format!("/dev/nvme{i}n1p1\t960187695104\n")))
        .collect();
    let c = Captured {
        zpool_status: status,
        zpool_list: Some(list),
        leaves,
        ..Captured::default()
    };
    let (text, s) = read_back("tank", &c);
    assert!(text.contains("layout = \"draid2:4d:12c:1s\"\nspecial = \"mirror-2\"\nlog = \"mirror-2\"\nspares = 1\ncache = 1\n"), "{text}");
    assert_eq!(s.disks.len(), 18);
    assert_eq!(s.disks[12].name, "/dev/nvme0n1p1");
    assert_eq!(s.disks[16].name, "/dev/sdm1", "the hot spare after the log");
    assert_eq!(s.disks[17].name, "/dev/nvme4n1p1", "the cache device last");
    assert_eq!(s.disks[0].model.capacity_bytes, 4_000_776_716_288);
    assert!(text.contains("# not found on this machine (a missing device?)"));
}

#[test]
fn calibrate_refuses_what_is_in_use_and_reads_its_zones() {
    let desk = lsblk::parse(&fixture("lsblk/multi-devs-bcachefs.json")).unwrap();
    assert_eq!(
        calibrate::check("/dev/sda", &desk, "").unwrap_err(),
        MeasureError::Refused(
            "/dev/sda is mounted: calibrate reads only a disk nothing uses".into()
        )
    );
    assert!(calibrate::check("/dev/sdz", &desk, "")
        .unwrap_err()
        .to_string()
        .contains("not a block device"));
    let big = lsblk::parse(&fixture("built/expander-lsblk.json")).unwrap();
    let status = fixture("built/expander-status.txt");
    assert_eq!(
        calibrate::check("/dev/sdc", &big, &status).unwrap_err(),
        MeasureError::Refused("/dev/sdc is part of the pool 'big'".into())
    );
    assert!(calibrate::check("/dev/sdc", &big, "")
        .unwrap_err()
        .to_string()
        .contains("carries a ZFS label"));

    let vm = lsblk::parse(&fixture("lsblk/this-vm.json")).unwrap();
    let zram = calibrate::check("zram0", &vm, "").unwrap();
    let job = calibrate::job(&zram, 2, 1);
    assert!(job.contains("filename=/dev/zram0\nioengine=psync\ndirect=1\n"));
    let loop0 = lsblk::BlockDevice {
        name: "loop0".into(),
        path: "/dev/loop0".into(),
        size_bytes: 268_435_456,
        rotational: true,
        ..zram
    };
    assert!(calibrate::job(&loop0, 2, 1)
        .contains("[zone1]\nrw=read\nbs=1M\noffset=134217728\nsize=134217728\n"));
    let c = calibrate::calibration(
        &loop0,
        Some(7200),
        &fixture("fio/calibrate-loop0.json"),
        "now",
    )
    .unwrap();
    let zones: Vec<(u64, f64)> = c.zones.iter().map(|z| (z.offset_bytes, z.mb_s)).collect();
    assert_eq!(zones, [(0, 4041.364843), (134_217_728, 4333.625286)]);
    assert!((c.random_read_ms - 0.021581096127).abs() < 1e-12);
    let mut catalog = model::Catalog::embedded().clone();
    catalog.merge_file(&c.entry, "calibrated.toml").unwrap();
    let d = catalog.disk("calibrated-loop0").unwrap();
    assert_eq!(
        (d.capacity_bytes, d.seq_outer_mb_s, d.seq_inner_mb_s),
        (268_435_456, 4041.36, 4041.36)
    );
    assert_eq!(d.zones.len(), 2);
}

/// Every tool runs in the C locale, whatever the user's: under de_DE.UTF-8 zpool iostat
/// printed `11,1M`, which no parser reads.
#[test]
fn tools_run_in_the_c_locale() {
    // SAFETY of the test: no other test of this crate reads the environment meanwhile.
    std::env::set_var("LC_ALL", "de_DE.UTF-8");
    let locale = crate::runner::run("sh", &["-c", "printf '%s' \"$LC_ALL\""]);
    std::env::remove_var("LC_ALL");
    assert_eq!(locale.unwrap(), "C");
}
