//! `smartctl -i -j`: what the drive says of itself: model, capacity, sectors, rotation rate,
//! protocol and interface speed. Fields follow smartmontools' JSON (json_format_version 1).

use crate::{fail, Result};
use serde::Serialize;
use serde_json::Value;

/// What a drive says of itself through `smartctl -i -j`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DriveInfo {
    /// ATA, SCSI (SAS and parallel SCSI) or NVMe.
    pub protocol: String,
    /// The vendor, where the drive reports one apart from its model (SCSI: `scsi_vendor`).
    pub vendor: Option<String>,
    /// The model as the drive reports it (`WDC WD20EFRX-68EUZN0`, `ST373453LC`).
    pub model: String,
    /// The family smartctl's drive database knows it in.
    pub family: Option<String>,
    /// User capacity, bytes.
    pub capacity_bytes: Option<u64>,
    /// The sector size it reports.
    pub logical_sector: Option<u32>,
    /// The sector size it writes.
    pub physical_sector: Option<u32>,
    /// Spindle speed; `Some(0)` is what smartctl reports for solid state.
    pub rotation_rate: Option<u32>,
    /// Negotiated SATA link rate, Gb/s.
    pub link_gbps: Option<f64>,
    /// The SCSI transport (`SAS (SPL-4)`, `Parallel SCSI (SPI-4)`).
    pub transport: Option<String>,
}

/// Reads `smartctl -i -j` output; fails when it names no model.
pub fn parse(json: &str) -> Result<DriveInfo> {
    let v: Value =
        serde_json::from_str(json).or_else(|e| fail(format!("smartctl printed no JSON: {e}")))?;
    let s = |path: &[&str]| {
        get(&v, path)?
            .as_str()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    };
    let n = |path: &[&str]| get(&v, path)?.as_u64();
    let Some(model) = s(&["model_name"]).or_else(|| s(&["scsi_product"])) else {
        return fail("smartctl's JSON names no model (model_name or scsi_product)");
    };
    let link_gbps = n(&["interface_speed", "current", "units_per_second"])
        .zip(n(&["interface_speed", "current", "bits_per_unit"]))
        .map(|(units, bits)| (units * bits) as f64 / 1e9);
    Ok(DriveInfo {
        protocol: s(&["device", "protocol"]).unwrap_or_default(),
        vendor: s(&["scsi_vendor"]),
        family: s(&["model_family"]),
        capacity_bytes: n(&["user_capacity", "bytes"]).or_else(|| n(&["nvme_total_capacity"])),
        logical_sector: n(&["logical_block_size"]).map(|b| b as u32),
        physical_sector: n(&["physical_block_size"]).map(|b| b as u32),
        rotation_rate: n(&["rotation_rate"]).map(|r| r as u32),
        link_gbps,
        transport: s(&["scsi_transport_protocol", "name"]),
        model,
    })
}

/// The value at a path of keys.
fn get<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |at, key| at.get(key))
}
