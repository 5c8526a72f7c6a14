//! Systems built by hand for unit tests: one controller on one link, identical disks.

use crate::leaf::tests::hdd;
use crate::release::Release;
use model::hardware::{ControllerModel, CpuModel, Interface, Link, LinkKind, Simd};
use model::system::{Attach, Controller, Disk, Host, System, Tunables, Upstream, ZfsRelease};
use model::{Layout, Leaf, Pool};

/// `n` disks of `outer` MB/s (inner half of it) on one controller on `link`, pooled as `layout`.
pub(crate) fn system(layout: &str, n: usize, outer: f64, link: LinkKind) -> System {
    let disk = hdd(outer, outer / 2.0, 7200);
    let leaf = Leaf {
        capacity_bytes: disk.capacity_bytes,
        logical_sector: 512,
        whole_disk: true,
    };
    System {
        name: format!("test {layout}"),
        source: None,
        host: Host {
            cpu: CpuModel {
                id: "cpu".into(),
                name: "test cpu".into(),
                cores: 64,
                threads: 64,
                ghz: 3.0,
                boost_ghz: None,
                simd: Simd::Avx2,
                sha_ni: false,
                year: 2024,
                memory_mb_s: None,
                sources: Default::default(),
            },
            sockets: 1,
            ram_bytes: 64 << 30,
            zfs: ZfsRelease::default(),
            nics: vec![],
            tunables: Default::default(),
        },
        links: vec![Link {
            id: "bus".into(),
            kind: link,
            parent: None,
            source: None,
        }],
        controllers: vec![Controller {
            id: "hba".into(),
            model: ControllerModel {
                id: "hba".into(),
                name: "test hba".into(),
                ports: 64,
                interface: Interface::Sata,
                port_gbps: 6.0,
                port_limit_mb_s: None,
                chip_limit_mb_s: None,
                enclosure_mb_s: None,
                kind: Default::default(),
                uplink_lanes: None,
                command_queueing: true,
                host_interface: "pcie".into(),
                sources: Default::default(),
            },
            upstream: Upstream::Link("bus".into()),
        }],
        disks: (0..n)
            .map(|i| Disk {
                name: format!("d{i}"),
                model: disk.clone(),
                attach: Attach::Controller("hba".into()),
            })
            .collect(),
        pool: uncompressed(Pool::simple(
            layout.parse::<Layout>().expect("layout"),
            leaf,
            12,
        )),
    }
}

/// The pool with compression off: the tests below look at disks, buses and CPUs moving every
/// byte, where the current default (lz4) would turn dd's zeros into holes.
fn uncompressed(mut pool: Pool) -> Pool {
    for d in &mut pool.datasets {
        d.compression = model::dataset::Compression::Off;
    }
    pool
}

/// A PCIe 3.0 x8 link: far faster than a few disks.
pub(crate) fn fast_link() -> LinkKind {
    LinkKind::Pcie {
        gen: 3,
        lanes: 8,
        max_payload: 256,
    }
}

/// A release as OpenZFS names it ("2.2.9", "0.8.3"), with default tunables.
pub(crate) fn release(text: &str) -> Release {
    Release::of(text.parse().unwrap(), &Tunables::default())
}

/// A 4-core, 2.5 GHz CPU without SHA extensions, of `simd` and `year`: what the per-byte and
/// per-cycle rules read (cpu.rs, icp.rs).
pub(crate) fn cpu(simd: Simd, year: u32) -> CpuModel {
    CpuModel {
        id: "c".into(),
        name: "c".into(),
        cores: 4,
        threads: 4,
        ghz: 2.5,
        boost_ghz: None,
        simd,
        sha_ni: false,
        year,
        memory_mb_s: None,
        sources: Default::default(),
    }
}
