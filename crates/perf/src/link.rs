//! What a link carries in practice, each way: raw rate times the protocol's efficiency
//! (docs/zfs-internals.md §4). Direction matters on PCI Express: a disk read is a device write to
//! memory (posted, Max_Payload_Size per packet); a disk write is a device read of memory,
//! whose data returns in completions cut at the root complex's 64-byte Read Completion
//! Boundary.

use model::hardware::LinkKind;

/// PCIe 1.x-2.x as measured: the share of the raw rate carrying data is
/// `PCIE1_LINK_CEILING * payload / (payload + PCIE1_PACKET_OVERHEAD_BYTES)`, derived exactly
/// from the two facts seed 000 states of one PCIe 1.0 x1 link (SiI3132): 147 MB/s of 250 with
/// 128-byte payloads, 175 MB/s with 256 (a calibration of seed 000; seed 002's DMI 1.0 writes
/// check it). The 60 bytes stand for the TLP's header, framing, sequence number and LCRC
/// (~24 B) and what the specification does not fix: the chipsets' gaps between packets and
/// their few outstanding reads; the ceiling for the rest of the link layer.
const PCIE1_PACKET_OVERHEAD_BYTES: f64 = 60.24;
const PCIE1_LINK_CEILING: f64 = 0.8647;

/// PCIe 3.0 on, packet overheads from the base specification (docs/zfs-internals.md §4): every
/// transaction layer packet (TLP) carries a 2-byte sequence number and a 4-byte LCRC from the
/// data link layer...
const PCIE_TLP_LINK_BYTES: f64 = 6.0;
/// ...its header: 4 DW for a memory write with a 64-bit address (a disk read: the device
/// writes memory), 3 DW for a completion with data (a disk write: the device reads memory and
/// the root complex answers)...
const PCIE_MWR_HEADER_BYTES: f64 = 16.0;
const PCIE_CPLD_HEADER_BYTES: f64 = 12.0;
/// ...and its physical-layer framing: a 4-byte STP token with 128b/130b.
const PCIE_FRAMING_BYTES: f64 = 4.0;
/// Share of the blocks left after SKP ordered sets (clock compensation): one 16-byte set per
/// 370-375 blocks of 16 bytes with 128b/130b, about 0.3%. Data link packets (Acks, flow-control updates: 8 bytes
/// each) mostly travel against the data, acknowledging it, and are left out.
const PCIE_SKP_SHARE: f64 = 0.997;

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

/// Data bytes per completion a root complex returns to a device reading memory (a disk
/// write). PCIe 1.x-2.x chipsets answer cache line by cache line, at the 64-byte Read
/// Completion Boundary (base specification 2.3.1.1); from PCIe 3.0 the root complexes combine
/// completions up to Max_Payload_Size. APPROXIMATION, from what the drives' data sheets show:
/// a Samsung 990 PRO writes 6,900 MB/s over PCIe 4.0 x4, where 64-byte completions would carry
/// at most 5,860.
fn completion_bytes(gen: u32, max_payload: u32) -> u32 {
    if gen <= 2 {
        max_payload.min(64)
    } else {
        max_payload
    }
}

/// Share of a PCIe link's raw (post-encoding) rate that carries data in packets of `payload`
/// bytes under `header` bytes of TLP header, on a link of generation `gen`: PCIe 1.x-2.x as
/// seed 000 measured it, 3.0 on from the specification.
pub(crate) fn pcie_efficiency(gen: u32, payload: u32, header: f64) -> f64 {
    let p = f64::from(payload);
    if gen <= 2 {
        PCIE1_LINK_CEILING * p / (p + PCIE1_PACKET_OVERHEAD_BYTES)
    } else {
        PCIE_SKP_SHARE * p / (p + header + PCIE_TLP_LINK_BYTES + PCIE_FRAMING_BYTES)
    }
}

/// Share of a parallel bus's (PCI, PCI-X) clocks that carry data: each burst of
/// `PARALLEL_BUS_BURST_BYTES` costs arbitration, address and turnaround clocks on top of its
/// data clocks, and a wider bus moves the same burst in fewer data clocks.
pub(crate) fn parallel_bus_efficiency(bits: u32) -> f64 {
    let data_clocks = PARALLEL_BUS_BURST_BYTES / (f64::from(bits) / 8.0);
    data_clocks / (data_clocks + PARALLEL_BUS_OVERHEAD_CLOCKS)
}

/// Raw rate of a link, MB/s each way.
pub(crate) fn raw_mb_s(kind: &LinkKind) -> f64 {
    match *kind {
        LinkKind::Pci { bits, mhz } | LinkKind::PciX { bits, mhz } => f64::from(bits) / 8.0 * mhz,
        LinkKind::Pcie { gen, lanes, .. } => pcie_lane_mb_s(gen) * f64::from(lanes),
        LinkKind::Uplink { mb_s } => mb_s,
    }
}

/// Usable rate of a link in one direction, B/s: `to_memory` for disk reads.
pub(crate) fn usable_bytes_per_s(kind: &LinkKind, to_memory: bool) -> f64 {
    let eff = match *kind {
        LinkKind::Pci { bits, .. } | LinkKind::PciX { bits, .. } => parallel_bus_efficiency(bits),
        LinkKind::Pcie {
            gen, max_payload, ..
        } => {
            if to_memory {
                pcie_efficiency(gen, max_payload, PCIE_MWR_HEADER_BYTES)
            } else {
                pcie_efficiency(
                    gen,
                    completion_bytes(gen, max_payload),
                    PCIE_CPLD_HEADER_BYTES,
                )
            }
        }
        // An uplink is given by its usable rate already.
        LinkKind::Uplink { .. } => 1.0,
    };
    raw_mb_s(kind) * 1e6 * eff
}

/// A short description for reports: "PCI-X 64-bit/133 MHz".
pub(crate) fn describe(kind: &LinkKind) -> String {
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

    fn pcie(gen: u32, lanes: u32, max_payload: u32) -> LinkKind {
        LinkKind::Pcie {
            gen,
            lanes,
            max_payload,
        }
    }

    #[test]
    fn pcie_from_its_specification() {
        // Seed 000: PCIe 1.0 x1, 147 MB/s one way at 128-byte payloads, 175 MB/s at 256.
        let x1 = |p| usable_bytes_per_s(&pcie(1, 1, p), true) / 1e6;
        assert!((x1(128) - 147.0).abs() < 1.0 && (x1(256) - 175.0).abs() < 1.0);
        // Disk writes on PCIe 1.x come back in 64-byte completions whatever the payload.
        let back = usable_bytes_per_s(&pcie(1, 1, 256), false);
        assert_eq!(back, usable_bytes_per_s(&pcie(1, 1, 64), true));
        // PCIe 3.0 x8 at 256 bytes: 7877 x 0.997 x 256 / (256 + 16 + 6 + 4).
        let gen3 = usable_bytes_per_s(&pcie(3, 8, 256), true) / 1e6;
        assert!(
            (gen3 - 7880.0 * 0.997 * 256.0 / 282.0).abs() < 1e-6,
            "{gen3}"
        );
        // PCIe 4.0 x4 at 256 bytes: 7876 MB/s raw, 90.5% in memory writes, 91.5% in
        // completions: a 990 PRO's 7,450 MB/s reads land within 5%, its 6,900 writes fit.
        let to = usable_bytes_per_s(&pcie(4, 4, 256), true) / 1e6;
        let from = usable_bytes_per_s(&pcie(4, 4, 256), false) / 1e6;
        assert!((to / 7450.0 - 1.0).abs() < 0.05, "{to}");
        assert!(from > 6900.0, "{from}");
        // Larger payloads carry more; every generation doubles the lane.
        assert!(
            usable_bytes_per_s(&pcie(4, 4, 512), true) > usable_bytes_per_s(&pcie(4, 4, 256), true)
        );
        let g5 = usable_bytes_per_s(&pcie(5, 4, 256), true);
        assert!((g5 / usable_bytes_per_s(&pcie(4, 4, 256), true) - 2.0).abs() < 1e-3);
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
