//! What a link carries in practice, each way: raw rate times the protocol's efficiency
//! (docs/zfs-internals.md §4). Direction matters on PCI Express: a disk read is a device write to
//! memory (posted, Max_Payload_Size per packet); a disk write is a device read of memory,
//! whose data returns in completions cut at the root complex's 64-byte Read Completion
//! Boundary.

use model::hardware::LinkKind;

/// PCIe: the share of the raw rate carrying data is
/// `PCIE_LINK_CEILING * payload / (payload + PCIE_PACKET_OVERHEAD_BYTES)`. Derived exactly from
/// the two facts seed 000 states of one PCIe 1.0 x1 link (SiI3132): 147 MB/s of 250 with
/// 128-byte payloads, 175 MB/s with 256-byte payloads. The 60 bytes stand for the TLP header,
/// framing, sequence number and LCRC (~24 B) plus the link's ACK and flow-control packets and
/// the chip's gaps; the ceiling for the rest of the link layer.
const PCIE_PACKET_OVERHEAD_BYTES: f64 = 60.24;
const PCIE_LINK_CEILING: f64 = 0.8647;

/// Parallel buses (PCI, PCI-X): a storage controller's DMA moves bursts of this many bytes
/// (a few cache lines: the SATA controllers' PRD-driven bursts)...
const PARALLEL_BUS_BURST_BYTES: f64 = 128.0;
/// ...each costing this many bus clocks beyond its data clocks (arbitration, address and
/// attribute phases, turnaround, the target's initial wait states). Derived from the fact
/// seed 000 states of a SiI3124 alone in a 32-bit/33 MHz PCI slot: 87 MB/s of 133, so
/// 32 / (32 + c) = 0.6525, c = 17.0.
const PARALLEL_BUS_OVERHEAD_CLOCKS: f64 = 17.04;

/// Data per lane and direction after line coding, MB/s: gen1 250, gen2 500 (8b/10b),
/// gen3 985, gen4 1969, gen5 3938 (128b/130b) (PCI-SIG base specifications; docs/zfs-internals.md §4).
fn pcie_lane_mb_s(gen: u32) -> f64 {
    match gen {
        0 | 1 => 250.0,
        2 => 500.0,
        3 => 985.0,
        4 => 1969.0,
        _ => 3938.0 * f64::from(1u32 << (gen.min(7) - 5)),
    }
}

/// Read Completion Boundary of root complexes: memory read data returns in completions of
/// at most 64 bytes (PCIe base specification 2.3.1.1; RCB 64 B is what PC root complexes use).
const PCIE_READ_COMPLETION_BYTES: u32 = 64;

/// Share of a PCIe link's raw rate that carries data, with `payload` bytes per packet:
/// ceiling * payload / (payload + per-packet overhead).
pub fn pcie_efficiency(payload: u32) -> f64 {
    let p = f64::from(payload);
    PCIE_LINK_CEILING * p / (p + PCIE_PACKET_OVERHEAD_BYTES)
}

/// Share of a parallel bus's (PCI, PCI-X) clocks that carry data: each burst of
/// `PARALLEL_BUS_BURST_BYTES` costs arbitration, address and turnaround clocks on top of its
/// data clocks, and a wider bus moves the same burst in fewer data clocks.
pub fn parallel_bus_efficiency(bits: u32) -> f64 {
    let data_clocks = PARALLEL_BUS_BURST_BYTES / (f64::from(bits) / 8.0);
    data_clocks / (data_clocks + PARALLEL_BUS_OVERHEAD_CLOCKS)
}

/// Raw rate of a link, MB/s each way.
pub fn raw_mb_s(kind: &LinkKind) -> f64 {
    match *kind {
        LinkKind::Pci { bits, mhz } | LinkKind::PciX { bits, mhz } => f64::from(bits) / 8.0 * mhz,
        LinkKind::Pcie { gen, lanes, .. } => pcie_lane_mb_s(gen) * f64::from(lanes),
        LinkKind::Uplink { mb_s } => mb_s,
    }
}

/// Usable rate of a link in one direction, B/s: `to_memory` for disk reads.
pub fn usable_bytes_per_s(kind: &LinkKind, to_memory: bool) -> f64 {
    let eff = match *kind {
        LinkKind::Pci { bits, .. } | LinkKind::PciX { bits, .. } => parallel_bus_efficiency(bits),
        LinkKind::Pcie { max_payload, .. } => {
            let payload = if to_memory {
                max_payload
            } else {
                max_payload.min(PCIE_READ_COMPLETION_BYTES)
            };
            pcie_efficiency(payload)
        }
        // An uplink is given by its usable rate already.
        LinkKind::Uplink { .. } => 1.0,
    };
    raw_mb_s(kind) * 1e6 * eff
}

/// A short description for reports: "PCI-X 64-bit/133 MHz".
pub fn describe(kind: &LinkKind) -> String {
    match *kind {
        LinkKind::Pci { bits, mhz } => format!("PCI {bits}-bit/{mhz:.0} MHz"),
        LinkKind::PciX { bits, mhz } => format!("PCI-X {bits}-bit/{mhz:.0} MHz"),
        LinkKind::Pcie {
            gen,
            lanes,
            max_payload,
        } => format!("PCIe {gen}.0 x{lanes}, {max_payload}-byte payload"),
        LinkKind::Uplink { mb_s } => format!("uplink of {mb_s:.0} MB/s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_payload_efficiency_reproduces_seed_000() {
        // Seed 000: PCIe 1.0 x1, 147 MB/s one way at 128-byte payloads, 175 MB/s at 256.
        let x1 = |p| LinkKind::Pcie {
            gen: 1,
            lanes: 1,
            max_payload: p,
        };
        assert!((usable_bytes_per_s(&x1(128), true) / 1e6 - 147.0).abs() < 1.0);
        assert!((usable_bytes_per_s(&x1(256), true) / 1e6 - 175.0).abs() < 1.0);
        // Writes to disk come back in 64-byte completions whatever the payload setting.
        let w = usable_bytes_per_s(&x1(256), false);
        assert_eq!(w, usable_bytes_per_s(&x1(64), true));
        assert!(w / 1e6 > 105.0 && w / 1e6 < 118.0);
    }

    #[test]
    fn shared_parallel_buses() {
        // Seed 000: a SiI3124 alone in a 32-bit/33 MHz PCI slot moved 87 MB/s.
        let pci = LinkKind::Pci {
            bits: 32,
            mhz: 33.33,
        };
        assert!((usable_bytes_per_s(&pci, true) / 1e6 - 87.0).abs() < 1.0);
        // The same clocks per burst on a 64-bit/133 MHz PCI-X bus: about half its 1066 MB/s,
        // where seed 001's reads levelled off (520 MB/s).
        let pcix = LinkKind::PciX {
            bits: 64,
            mhz: 133.33,
        };
        let got = usable_bytes_per_s(&pcix, true) / 1e6;
        assert!((got - 520.0).abs() / 520.0 < 0.03, "{got}");
        assert_eq!(
            usable_bytes_per_s(&pcix, true),
            usable_bytes_per_s(&pcix, false)
        );
    }

    #[test]
    fn lane_rates() {
        let x4 = LinkKind::Pcie {
            gen: 3,
            lanes: 4,
            max_payload: 256,
        };
        assert_eq!(raw_mb_s(&x4), 3940.0);
        assert_eq!(raw_mb_s(&LinkKind::Uplink { mb_s: 1000.0 }), 1000.0);
    }
}
