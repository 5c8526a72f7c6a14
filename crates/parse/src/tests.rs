//! Every parser on captured outputs of real machines (tests/fixtures/README.md says where each
//! was captured), asserting the exact figures the tools printed.

use crate::*;

fn fixture(path: &str) -> String {
    let file = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn smartctl_reads_sata_sas_scsi_and_nvme_drives_of_four_vendors() {
    let wd = smartctl::parse(&fixture("smartctl/WDC_WD20EFRX-68EUZN0_17.json")).unwrap();
    assert_eq!(wd.protocol, "ATA");
    assert_eq!(wd.model, "WDC WD20EFRX-68EUZN0");
    assert_eq!(wd.capacity_bytes, Some(2_000_398_934_016));
    assert_eq!(
        (wd.logical_sector, wd.physical_sector),
        (Some(512), Some(4096))
    );
    assert_eq!(wd.rotation_rate, Some(5400));
    assert_eq!(wd.link_gbps, Some(6.0));

    let sas = smartctl::parse(&fixture("smartctl/HITACHI_H109060SESUN600G_10.json")).unwrap();
    assert_eq!(
        (sas.protocol.as_str(), sas.model.as_str()),
        ("SCSI", "H109060SESUN600G")
    );
    assert_eq!(sas.vendor.as_deref(), Some("HITACHI"));
    assert_eq!(sas.capacity_bytes, Some(600_127_266_816));
    assert_eq!(sas.rotation_rate, Some(10_020));
    assert_eq!(sas.transport.as_deref(), Some("SAS (SPL-4)"));
    assert_eq!(sas.physical_sector, None);

    let spi = smartctl::parse(&fixture("smartctl/SEAGATE_ST373453LC_26.json")).unwrap();
    assert_eq!(spi.capacity_bytes, Some(73_407_820_800));
    assert_eq!(spi.rotation_rate, Some(15_015));
    assert_eq!(spi.transport.as_deref(), Some("Parallel SCSI (SPI-4)"));

    let ssd = smartctl::parse(&fixture("smartctl/SAMSUNG_MZ7WD240HAFV-00003_21.json")).unwrap();
    assert_eq!(ssd.model, "SAMSUNG MZ7WD240HAFV-00003");
    assert_eq!(
        (ssd.capacity_bytes, ssd.rotation_rate),
        (Some(240_057_409_536), Some(0))
    );

    let nvme = smartctl::parse(&fixture("smartctl/SAMSUNG_MZQLB1T9HAJR-00007_19.json")).unwrap();
    assert_eq!(
        (nvme.protocol.as_str(), nvme.model.as_str()),
        ("NVMe", "SAMSUNG MZQLB1T9HAJR-00007")
    );
    assert_eq!(nvme.capacity_bytes, Some(1_920_383_410_176));
    assert_eq!((nvme.logical_sector, nvme.rotation_rate), (Some(512), None));

    assert!(smartctl::parse("{}")
        .unwrap_err()
        .to_string()
        .contains("names no model"));
    assert!(smartctl::parse("smartctl: not JSON").is_err());
}

#[test]
fn lsblk_reads_three_machines() {
    let devs = lsblk::parse(&fixture("lsblk/multi-devs-bcachefs.json")).unwrap();
    let names: Vec<&str> = devs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["sda", "sdb", "sdc", "sr0", "nvme0n1"]);
    let sdb = &devs[1];
    assert_eq!((sdb.size_bytes, sdb.rotational), (80_026_361_856, true));
    assert_eq!(sdb.model.as_deref(), Some("WDC_WD800JD-00MSA1"));
    assert_eq!(sdb.children[0].mountpoints, ["/mnt/virt"]);
    assert!(sdb.mounted() && !sdb.zfs_member());
    let nvme = &devs[4];
    assert_eq!(
        (nvme.size_bytes, nvme.transport.as_deref()),
        (1_024_209_543_168, Some("nvme"))
    );
    assert_eq!(nvme.children[2].size_bytes, 429_496_729_600);

    let simple = lsblk::parse(&fixture("lsblk/simple-nvme.json")).unwrap();
    assert_eq!(simple[2].model.as_deref(), Some("KINGSTON SKC1000240G"));
    assert_eq!(simple[2].children.len(), 3);

    let vm = lsblk::parse(&fixture("lsblk/this-vm.json")).unwrap();
    let vda = vm.iter().find(|d| d.name == "vda").unwrap();
    assert_eq!(
        (vda.size_bytes, vda.logical_sector, vda.physical_sector),
        (274_877_906_944, 512, 4096)
    );
    assert_eq!(vda.mountpoints, ["/"]);

    // lsblk before 2.37 printed numbers and flags as strings.
    let old = r#"{"blockdevices": [{"name": "sda", "size": "500107862016", "rota": "1", "log-sec": "512", "phy-sec": "4096", "type": "disk", "mountpoint": null}]}"#;
    let d = &lsblk::parse(old).unwrap()[0];
    assert_eq!(
        (d.size_bytes, d.rotational, d.physical_sector),
        (500_107_862_016, true, 4096)
    );
    assert!(lsblk::parse(r#"{"devices": []}"#).is_err());
}

#[test]
fn sysfs_places_disks_under_their_controllers() {
    let s = sysfs::parse(&fixture("sysfs/multi-devs-bcachefs.txt"));
    assert_eq!(s.block("sr0").device_queue_depth, Some(1));
    assert_eq!(s.pci_path("sda"), ["0000:00:1f.2"]);
    assert_eq!(s.pci_path("nvme0n1"), ["0000:00:1c.4", "0000:05:00.0"]);
    assert!(
        s.pci_path("sdc").is_empty(),
        "scsi_debug hangs from no PCI function"
    );
    let sdb = s.block("sdb");
    assert_eq!(
        (sdb.rotational, sdb.nr_requests, sdb.device_queue_depth),
        (Some(true), Some(64), Some(32))
    );
    assert_eq!(s.block("nvme0n1").nr_requests, Some(1023));

    let vm = sysfs::parse(&fixture("sysfs/this-vm.txt"));
    assert_eq!(vm.pci_path("vda"), ["0000:00:02.0"]);
    let virtio = vm.pci("0000:00:02.0");
    assert_eq!(
        (virtio.vendor, virtio.device, virtio.current_link),
        (Some(0x1af4), Some(0x1042), None)
    );

    let built = sysfs::parse(&fixture("built/expander-sysfs.txt"));
    assert_eq!(built.expander_of("sdc").as_deref(), Some("expander-0:0"));
    assert_eq!(built.pci_path("sdl"), ["0000:00:03.0", "0000:03:00.0"]);
    let hba = built.pci("0000:03:00.0");
    assert_eq!(
        (hba.current_link, hba.class),
        (Some((8.0, 8)), Some(0x010700))
    );
    let e = &built.expanders()[0];
    assert_eq!(
        (e.vendor.as_deref(), e.product.as_deref()),
        (Some("LSI"), Some("SAS2X36"))
    );
}

#[test]
fn lspci_reads_links_and_the_programmed_payload() {
    let asus = lspci::parse(&fixture("lspci/asus-p6t6.txt"));
    assert_eq!(asus.len(), 5);
    let hba = asus.iter().find(|d| d.address == "0000:04:00.0").unwrap();
    assert_eq!((hba.vendor, hba.device), (Some(0x1000), Some(0x0072)));
    assert!(hba
        .description
        .starts_with("Serial Attached SCSI controller [0107]: Broadcom / LSI SAS2008"));
    assert_eq!(
        (hba.link_capable, hba.link_status),
        (Some((5.0, 8)), Some((5.0, 8)))
    );
    // DevCap says 4096 bytes; DevCtl programmed 128.
    assert_eq!(hba.max_payload, Some(128));
    let ahci = asus.iter().find(|d| d.address == "0000:00:1f.2").unwrap();
    assert_eq!(
        (ahci.vendor, ahci.device, ahci.link_status),
        (Some(0x8086), Some(0x3a22), None)
    );

    let nvme = &lspci::parse(&fixture("lspci/samsung-pm174x.txt"))[0];
    assert_eq!((nvme.vendor, nvme.device), (Some(0x144d), Some(0xa826)));
    assert_eq!(
        (nvme.link_capable, nvme.link_status),
        (Some((32.0, 2)), Some((16.0, 2)))
    );
    assert_eq!(nvme.max_payload, Some(256));
}

#[test]
fn zpool_status_reads_classes_draid_and_old_formats() {
    let built = &zpool_status::parse(&fixture("built/openzfs-draid-classes-status.txt"))[0];
    let kinds: Vec<(zpool_status::Class, String, usize)> = built
        .vdevs
        .iter()
        .map(|v| (v.class, v.kind(), v.leaves.len()))
        .collect();
    use zpool_status::Class::*;
    assert_eq!(
        kinds,
        [
            (Normal, "draid2:4d:12c:1s".to_string(), 12),
            (Special, "mirror".to_string(), 2),
            (Log, "mirror".to_string(), 2),
            (Cache, "disk".to_string(), 0),
            (Spare, "disk".to_string(), 0),
        ]
    );
    let order: Vec<&str> = built
        .leaves_in_fill_order()
        .iter()
        .map(|(_, l)| *l)
        .collect();
    assert_eq!(
        order[11..],
        [
            "/dev/sdl1",
            "/dev/nvme0n1p1",
            "/dev/nvme1n1p1",
            "/dev/nvme2n1p1",
            "/dev/nvme3n1p1",
            "/dev/sdm1",
            "/dev/nvme4n1p1"
        ]
    );

    let man = &zpool_status::parse(&fixture("zpool/openzfs-man-logs-status.txt"))[0];
    let names: Vec<(&str, zpool_status::Class)> = man
        .vdevs
        .iter()
        .map(|v| (v.name.as_str(), v.class))
        .collect();
    assert_eq!(
        names,
        [
            ("mirror-0", Normal),
            ("mirror-1", Normal),
            ("mirror-2", Log)
        ]
    );

    let fuse = &zpool_status::parse(&fixture("zpool/zfs-fuse-status.txt"))[0];
    assert_eq!((fuse.name.as_str(), fuse.state.as_str()), ("zt", "ONLINE"));
    assert_eq!(fuse.vdevs[0].kind(), "raidz1");
    assert_eq!(
        fuse.vdevs[0].leaves,
        ["/tmp/zf/d0", "/tmp/zf/d1", "/tmp/zf/d2"]
    );
    assert_eq!(
        (fuse.vdevs[2].class, fuse.vdevs[2].name.as_str()),
        (Spare, "/tmp/zf/d5")
    );
}

#[test]
fn zpool_list_zfs_get_and_zdb_outputs() {
    let sizes = zpool_list::sizes(&fixture("zpool/openzfs-list-v-p-logs-cache.txt"));
    assert_eq!(sizes["sdc2"], 9_998_683_602_944);
    assert_eq!(sizes["mirror-1"], 17_716_740_096);
    assert!(!sizes.contains_key("logs"), "headings have no size");
    let props = zfs_get::parse(&fixture("zpool/zfs-fuse-zfs-get.txt"));
    assert_eq!(props[0].name, "zt");
    assert_eq!(
        (props[0].recordsize, props[0].compression.as_deref()),
        (Some(131_072), Some("off"))
    );
    assert_eq!(
        (props[0].compressratio, props[0].sync.as_deref()),
        (Some(1.0), None)
    );
}

#[test]
fn zpool_iostat_reads_each_second_per_disk() {
    let reports = iostat::parse(&fixture("zpool/zfs-fuse-iostat.txt"));
    assert_eq!(reports.len(), 3);
    let second = &reports[1];
    let leaves: Vec<&iostat::Row> = second.iter().filter(|r| r.leaf).collect();
    assert_eq!(leaves.len(), 5);
    assert_eq!(leaves[0].name, "/tmp/zf/d0");
    assert_eq!(leaves[0].vdev.as_deref(), Some("raidz1"));
    assert_eq!(leaves[0].write_ops, 1.57 * 1024.0);
    assert_eq!(leaves[0].write_bytes, 85.3 * 1024.0 * 1024.0);
    assert_eq!(leaves[3].vdev.as_deref(), Some("mirror"));
    let pool = &second[0];
    assert_eq!(
        (pool.name.as_str(), pool.leaf, pool.write_bytes),
        ("zt", false, 315.0 * 1048576.0)
    );
}

#[test]
fn proc_files_of_this_machine() {
    let cpu = cpuinfo::parse_cpuinfo(&fixture("proc/this-vm-cpuinfo.txt")).unwrap();
    assert_eq!((cpu.sockets, cpu.cores, cpu.threads), (1, 2, 2));
    assert_eq!((cpu.ghz, cpu.simd, cpu.sha_ni), (Some(2.3), "avx512", true));
    assert_eq!(
        cpuinfo::parse_meminfo(&fixture("proc/this-vm-meminfo.txt")),
        Some(24_684_092 * 1024)
    );
    let busy = diskstats::busy_ms(&fixture("proc/this-vm-diskstats.txt"));
    assert!(busy.contains_key("vda"));
    assert!(cpuinfo::parse_cpuinfo("").is_none());
}

#[test]
fn fio_json_sums_reads_and_writes() {
    let m = fio_json::parse(&fixture("fio/randrw-io_uring.json")).unwrap();
    assert_eq!(
        (m.read_bytes_per_s, m.write_bytes_per_s),
        (40_357_825.0, 17_166_018.0)
    );
    assert!((m.iops - (9852.984706 + 4190.922546)).abs() < 1e-6);
    let mean = (19_972.0 * 64_528.611706 + 8_495.0 * 799_788.820365) / (19_972.0 + 8_495.0) / 1e9;
    assert!((m.mean_latency_s - mean).abs() < 1e-12);
    assert!(fio_json::parse("{\"fio version\": \"x\"}").is_err());
}

#[test]
fn fio_json_gives_each_sides_clat_percentiles() {
    // The fixture's clat_ns.percentile: read 34048 / 100864 / 292864 / 700416 ns, write
    // 313344 / 501760 / 2146304 / 57933824 ns at 50, 90, 99 and 99.9.
    let sides = fio_json::clat_percentiles(&fixture("fio/randrw-io_uring.json"));
    let got: Vec<(&str, [f64; 4])> = sides
        .iter()
        .map(|s| {
            let c = s.clat_s;
            (s.side, [c.p50, c.p90, c.p99, c.p999])
        })
        .collect();
    assert_eq!(
        got,
        [
            ("read", [34_048e-9, 100_864e-9, 292_864e-9, 700_416e-9]),
            (
                "write",
                [313_344e-9, 501_760e-9, 2_146_304e-9, 57_933_824e-9]
            )
        ]
    );
    assert!(fio_json::clat_percentiles("{\"jobs\": []}").is_empty());
}

#[test]
fn releases_from_version_strings() {
    assert_eq!(
        release::from_version("zfs-2.2.2-0ubuntu9\nzfs-kmod-2.2.3-1\n")
            .unwrap()
            .to_string(),
        "openzfs-2.2.3"
    );
    assert_eq!(
        release::from_version("0.7.5-1ubuntu16\n")
            .unwrap()
            .to_string(),
        "zol-0.7.5"
    );
    assert_eq!(
        release::from_version("2.3.0-rc5").unwrap().to_string(),
        "openzfs-2.3"
    );
    assert_eq!(
        release::from_pool_version("This system is currently running ZFS pool version 23."),
        Some(model::ZfsRelease::ZfsFuse)
    );
    assert_eq!(release::from_version("garbage"), None);
}

#[test]
fn fio_json_names_the_error_a_job_ended_with() {
    assert_eq!(
        fio_json::job_error(&fixture("fio/enospc-tmpfs.json")),
        Some(28)
    );
    assert_eq!(
        fio_json::job_error(&fixture("fio/randrw-io_uring.json")),
        None
    );
    assert_eq!(fio_json::job_error("fio: no JSON"), None);
}
