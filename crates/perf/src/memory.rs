//! Main memory as a pipe: every byte a job moves through it (device DMA, the checksum pass, the
//! copy between the application and the ARC, parity generation) at the rate streaming code
//! reaches on the platform.

use crate::station::{Kind, Station};
use model::hardware::CpuModel;

/// Share of a platform's peak memory bandwidth that streaming code reaches: STREAM results
/// on x86 servers and desktops run at about 65-80% of the DIMMs' peak (McCalpin's STREAM
/// results tables); 0.7 taken.
const MEMORY_STREAM_SHARE: f64 = 0.7;

/// Memory's station, where the platform's bandwidth is known.
pub(crate) fn station(cpu: &CpuModel, bytes_per_job: f64) -> Option<Station> {
    let peak = cpu.memory_mb_s?;
    let rate = peak * 1e6 * MEMORY_STREAM_SHARE;
    let detail = format!("{:.1} GB/s usable of {:.1} peak", rate / 1e9, peak / 1e3);
    Some(Station::new("memory", Kind::Memory, detail, bytes_per_job / rate).moving(bytes_per_job))
}
