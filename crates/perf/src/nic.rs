//! The host's network interfaces as pipes, one each way, for a workload served over the
//! network: what the clients read leaves through them, what they write arrives.

use crate::station::{Kind, Station};
use model::system::Host;

/// Payload a network link carries per Gb/s of line rate after Ethernet, IP and TCP headers:
/// ~118 MB/s on gigabit, ~1180 on 10 GbE (docs/zfs-internals.md §4).
const NIC_PAYLOAD_MB_S_PER_GBPS: f64 = 118.0;

/// The stations of all the host's ports together, out and in; with no interface the demand
/// is infinite (nothing can cross).
pub(crate) fn stations(host: &Host, read_bytes: f64, write_bytes: f64) -> [Station; 2] {
    let rate: f64 = host
        .nics
        .iter()
        .map(|n| n.gbps * f64::from(n.ports) * NIC_PAYLOAD_MB_S_PER_GBPS * 1e6)
        .sum();
    [("nic (out)", read_bytes), ("nic (in)", write_bytes)].map(|(name, bytes)| {
        let demand = if rate > 0.0 {
            bytes / rate
        } else {
            f64::INFINITY
        };
        let detail = format!("{:.0} MB/s of payload each way", rate / 1e6);
        Station::new(name, Kind::Network, detail, demand).moving(bytes)
    })
}
