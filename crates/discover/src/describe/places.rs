//! Where the disks attach: the controllers (a catalog model when its PCI IDs name one, else
//! inline) and the PCIe links of the controllers and NVMe drives, as /sys and lspci show them.

use super::disks::{Facts, Tools};
use crate::system_toml::Section;
use model::Catalog;
use parse::sysfs::Sysfs;
use std::collections::BTreeMap;

/// The pseudo-place of files and virtual devices: the host's own I/O path.
pub(super) const HOST: &str = "host";

/// What a disk names in its `controller` or (NVMe) `link` key.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Place {
    Controller(String),
    Link(String),
}

/// What hangs at one PCI function (or the host).
#[derive(Debug, Clone, Default)]
pub(super) struct Attached {
    pub disks: u32,
    pub interfaces: Vec<&'static str>,
    pub expander: Option<String>,
    /// An NVMe drive: the function is the drive, with a link and no controller.
    pub nvme: bool,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Places(BTreeMap<String, Attached>);

/// PCI IDs of the catalog's controllers (pci.ids names: SAS3008 PCI-Express Fusion-MPT SAS-3,
/// 82801JI (ICH10 Family) SATA AHCI, SB600 SATA, SiI 3124, SiI 3132).
const CATALOG_IDS: &[((u16, u16), &str)] = &[
    ((0x1000, 0x0097), "lsi-sas3008"),
    ((0x8086, 0x3a22), "intel-ich10r-ahci"),
    ((0x1002, 0x4380), "amd-sb600-ahci"),
    ((0x1095, 0x3124), "sil3124"),
    ((0x1095, 0x3132), "sil3132"),
];

impl Places {
    /// Records a disk; returns what it attaches to.
    pub(super) fn add(&mut self, f: &Facts, sys: &Sysfs) -> Place {
        let pci = sys.pci_path(&f.disk).last().cloned();
        let nvme = f.interface == Some("nvme") && pci.is_some();
        let id = pci.unwrap_or_else(|| HOST.to_string());
        let at = self.0.entry(id.clone()).or_default();
        at.disks += 1;
        at.interfaces.push(f.interface.unwrap_or("sata"));
        at.expander = at.expander.take().or(sys.expander_of(&f.disk));
        at.nvme |= nvme;
        if nvme {
            Place::Link(id)
        } else {
            Place::Controller(id)
        }
    }

    /// The `[[link]]` and `[[controller]]` sections.
    pub(super) fn sections(
        &self,
        tools: &Tools,
        catalog: &Catalog,
    ) -> (Vec<Section>, Vec<Section>) {
        let links = self.0.keys().map(|id| link(id, tools)).collect();
        let controllers = self
            .0
            .iter()
            .filter(|(_, a)| !a.nvme)
            .map(|(id, a)| controller(id, a, tools, catalog))
            .collect();
        (links, controllers)
    }
}

/// PCIe generation from the transfer rate per lane (PCIe base specifications 1.0-6.0).
fn generation(gts: f64) -> i64 {
    match gts {
        g if g < 4.0 => 1,
        g if g < 6.5 => 2,
        g if g < 12.0 => 3,
        g if g < 24.0 => 4,
        g if g < 48.0 => 5,
        _ => 6,
    }
}

/// A PCI function's link: its trained speed and width (/sys, else lspci's LnkSta) and the
/// Max_Payload_Size lspci read from its DevCtl.
fn link(id: &str, tools: &Tools) -> Section {
    let s = Section::new("[[link]]").read("id", id);
    let listed = tools.pci.iter().find(|d| d.address == id);
    let sys = tools.sys.pci(id);
    let Some((gts, lanes)) = sys.current_link.or(listed.and_then(|d| d.link_status)) else {
        let why = if id == HOST {
            "files and virtual disks go through the host's own I/O path, which no tool shows"
        } else {
            "no PCIe link shown (a virtual or conventional PCI function)"
        };
        return s.read("kind", "uplink").assumed("mb_s", 2000.0, why);
    };
    let lanes = [1, 2, 4, 8, 16, 32]
        .into_iter()
        .find(|&l| l >= lanes)
        .unwrap_or(32);
    let capable = sys
        .max_link
        .or(listed.and_then(|d| d.link_capable))
        .map_or(String::new(), |(g, w)| {
            format!(" (capable of {g} GT/s x{w})")
        });
    let s = s
        .read("kind", "pcie")
        .read("gen", generation(gts))
        .read("lanes", i64::from(lanes));
    let s = match listed.and_then(|d| d.max_payload) {
        Some(bytes) => s.read("max_payload", i64::from(bytes)),
        None => s.assumed("max_payload", 256, "lspci -vv showed no DevCtl MaxPayload"),
    };
    s.read(
        "source",
        format!("zpoolsim discover: trained at {gts} GT/s x{lanes}{capable}"),
    )
}

fn controller(id: &str, a: &Attached, tools: &Tools, catalog: &Catalog) -> Section {
    let listed = tools.pci.iter().find(|d| d.address == id);
    let sys = tools.sys.pci(id);
    let ids = sys
        .vendor
        .zip(sys.device)
        .or(listed.and_then(|d| d.vendor.zip(d.device)));
    let known = ids
        .and_then(|i| CATALOG_IDS.iter().find(|(k, _)| *k == i))
        .and_then(|(_, m)| catalog.controllers.get(*m));
    let mut s = Section::new("[[controller]]").read("id", id);
    if let Some(e) = &a.expander {
        let known = tools.sys.expanders().into_iter().find(|x| &x.name == e);
        let what: Vec<String> = known
            .iter()
            .flat_map(|x| [x.vendor.clone(), x.product.clone()])
            .flatten()
            .collect();
        let what = if what.is_empty() {
            String::new()
        } else {
            format!(" ({})", what.join(" "))
        };
        s = s.note(format!("its disks sit behind the SAS expander {e}{what}: the model has no expanders, so it is given a port per disk"));
    }
    s = match known {
        Some(m) if a.disks <= m.ports && a.expander.is_none() => s.read("model", m.id.as_str()),
        _ => {
            let description = listed.map(|d| d.description.clone());
            let (table, why) = inline(id, a, ids, description, sys.class);
            s.assumed("model", table, &why)
        }
    };
    s.read("link", id)
}

/// An inline controller: one port per disk found on it, the interface its disks or PCI class
/// speak, that interface's line rate.
fn inline(
    id: &str,
    a: &Attached,
    ids: Option<(u16, u16)>,
    description: Option<String>,
    class: Option<u32>,
) -> (toml::Table, String) {
    let sas_class = class.is_some_and(|c| c >> 8 == 0x0107);
    let interface = if a.interfaces.contains(&"sas") || sas_class {
        "sas"
    } else if a.interfaces.contains(&"scsi") {
        "scsi"
    } else {
        "sata"
    };
    let gbps = match interface {
        "sas" => 12.0,
        "scsi" => 2.56,
        _ => 6.0,
    };
    let (model_id, name) = match ids {
        Some((v, d)) => (
            format!("pci-{v:04x}-{d:04x}"),
            description.unwrap_or_else(|| format!("PCI {v:04x}:{d:04x} at {id}")),
        ),
        None => (
            "host-io".to_string(),
            "the host's own I/O path (files, virtual disks)".to_string(),
        ),
    };
    let mut t = toml::Table::new();
    t.insert("id".into(), model_id.into());
    t.insert("name".into(), name.into());
    t.insert("ports".into(), i64::from(a.disks.max(1)).into());
    t.insert("interface".into(), interface.into());
    t.insert("port_gbps".into(), gbps.into());
    t.insert("command_queueing".into(), true.into());
    t.insert("host_interface".into(), format!("PCI function {id}").into());
    let mut sources = toml::Table::new();
    let why = format!("ports = the {} disk(s) of the pool on it; {interface} at {gbps} Gb/s and command queueing as its disks speak", a.disks);
    sources.insert("default".into(), format!("zpoolsim discover: {why}").into());
    t.insert("sources".into(), sources.into());
    (t, why)
}
