//! `lspci -vv -nn`: each PCI function's name and IDs, its PCIe link as it can run (LnkCap) and
//! as it trained (LnkSta), and the Max_Payload_Size it was programmed with (DevCtl), which
//! /sys does not show.

use serde::Serialize;

/// One PCI function as `lspci -vv -nn` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PciDevice {
    /// Domain:bus:device.function; lspci leaves out domain 0000, which is added back.
    pub address: String,
    /// The class and name as lspci words them: `SATA controller: Intel Corporation ...`.
    pub description: String,
    /// PCI vendor id, from the `[vvvv:dddd]` pair.
    pub vendor: Option<u16>,
    /// PCI device id, from the `[vvvv:dddd]` pair.
    pub device: Option<u16>,
    /// GT/s per lane and lanes, as the device can run (LnkCap).
    pub link_capable: Option<(f64, u32)>,
    /// GT/s per lane and lanes, as trained (LnkSta).
    pub link_status: Option<(f64, u32)>,
    /// Max_Payload_Size in bytes as programmed (DevCtl), not as capable (DevCap).
    pub max_payload: Option<u32>,
}

/// Reads every stanza (a header line at column 0 and its indented lines).
pub fn parse(text: &str) -> Vec<PciDevice> {
    let mut out: Vec<PciDevice> = Vec::new();
    for line in text.lines() {
        if !line.starts_with(char::is_whitespace) {
            if let Some(d) = header(line) {
                out.push(d);
            }
            continue;
        }
        let Some(d) = out.last_mut() else { continue };
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("LnkCap:") {
            d.link_capable = link(rest);
        } else if let Some(rest) = l.strip_prefix("LnkSta:") {
            d.link_status = link(rest);
        } else if let Some(rest) = l.strip_prefix("MaxPayload ") {
            // DevCtl's continuation line; DevCap's MaxPayload follows "DevCap:" on its own line.
            d.max_payload = rest.split_whitespace().next().and_then(|n| n.parse().ok());
        }
    }
    out
}

/// `04:00.0 Serial Attached SCSI controller [0107]: Broadcom / LSI SAS2008 ... [1000:0072] (rev 02)`
fn header(line: &str) -> Option<PciDevice> {
    let (slot, rest) = line.split_once(' ')?;
    let address = match slot.len() {
        7 => format!("0000:{slot}"),
        _ => slot.to_string(),
    };
    if !crate::sysfs::is_pci_address(&address) {
        return None;
    }
    let ids = rest.rsplit('[').find_map(ids);
    Some(PciDevice {
        address,
        description: rest.trim().to_string(),
        vendor: ids.map(|i| i.0),
        device: ids.map(|i| i.1),
        link_capable: None,
        link_status: None,
        max_payload: None,
    })
}

/// `1000:0072]...`: the vendor and device IDs `-nn` prints in brackets.
fn ids(after_bracket: &str) -> Option<(u16, u16)> {
    let (v, d) = after_bracket.split(']').next()?.split_once(':')?;
    if v.len() != 4 || d.len() != 4 {
        return None;
    }
    Some((
        u16::from_str_radix(v, 16).ok()?,
        u16::from_str_radix(d, 16).ok()?,
    ))
}

/// `Port #1, Speed 8GT/s, Width x4, ...` or `Speed 5GT/s (downgraded), Width x1 (ok)`.
fn link(text: &str) -> Option<(f64, u32)> {
    let mut speed = None;
    let mut width = None;
    for part in text.split(',') {
        let part = part.trim();
        if let Some(s) = part.strip_prefix("Speed ") {
            speed = s
                .split("GT/s")
                .next()
                .and_then(|n| n.trim().parse::<f64>().ok());
        } else if let Some(w) = part.strip_prefix("Width x") {
            width = w
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u32>().ok());
        }
    }
    match (speed, width) {
        (Some(s), Some(w)) if w > 0 => Some((s, w)),
        _ => None,
    }
}
