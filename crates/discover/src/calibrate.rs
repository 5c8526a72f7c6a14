//! `zpoolsim calibrate --raw /dev/X`: a disk's sequential rate across its surface (its zone
//! curve) and its random-read latency, read by fio with `--readonly` and O_DIRECT, written as
//! a catalog entry (`--catalog FILE`). Only reads, and only a device that is neither mounted
//! nor part of a pool.

use crate::runner;
use crate::{MeasureError, Result};
use model::hardware::ZoneRate;
use parse::lsblk::BlockDevice;
use parse::{lsblk, zfs_label, zpool_status};
use serde::Serialize;
use serde_json::Value;

/// The device, refused if it is mounted, carries a ZFS label or is a leaf of a pool.
pub(crate) fn check(
    device: &str,
    devices: &[BlockDevice],
    pool_status: &str,
) -> Result<BlockDevice> {
    let name = device.trim_start_matches("/dev/");
    let Some(d) = find(devices, name) else {
        return MeasureError::refuse(format!("{device} is not a block device lsblk knows"));
    };
    if d.mounted() {
        return MeasureError::refuse(format!(
            "{device} is mounted: calibrate reads only a disk nothing uses"
        ));
    }
    let in_pool = zpool_status::parse(pool_status).into_iter().find(|p| {
        p.leaves_in_fill_order().iter().any(|(_, leaf)| {
            let leaf = leaf.trim_start_matches("/dev/");
            leaf == name || (leaf.starts_with(name) && d.children.iter().any(|c| c.name == leaf))
        })
    });
    if let Some(pool) = in_pool {
        return MeasureError::refuse(format!("{device} is part of the pool '{}'", pool.name));
    }
    if d.zfs_member() {
        return MeasureError::refuse(format!(
            "{device} carries a ZFS label (a pool that is not imported?)"
        ));
    }
    Ok(d.clone())
}

/// Refuses a device whose own bytes (or a partition's) hold a ZFS label, which udev may not
/// have seen: a pool not imported, or destroyed, that `zpool import` could still bring back.
fn refuse_labelled(device: &str, d: &BlockDevice) -> Result<()> {
    for part in std::iter::once(d).chain(&d.children) {
        let labels = runner::read_labels(&part.path, part.size_bytes)?;
        if labels.iter().any(|l| zfs_label::is_label(l)) {
            return MeasureError::refuse(format!(
                "{device} carries a ZFS label ({} holds one: a pool that is not imported, or destroyed)",
                part.path
            ));
        }
    }
    Ok(())
}

fn find<'a>(list: &'a [BlockDevice], name: &str) -> Option<&'a BlockDevice> {
    list.iter().find_map(|d| {
        (d.name == name)
            .then_some(d)
            .or_else(|| find(&d.children, name))
    })
}

/// The fio job: one sequential read per zone at equal steps across the disk, then 4 KiB
/// random reads one at a time over the whole disk.
pub(crate) fn job(d: &BlockDevice, zones: u32, runtime_s: u32) -> String {
    let zones = zones.max(1);
    let step = d.size_bytes / u64::from(zones) / 1_048_576 * 1_048_576;
    let mut text = format!(
        "; zpoolsim calibrate: read-only (fio --readonly)\n[global]\nfilename={}\nioengine=psync\n\
         direct=1\nruntime={runtime_s}\ntime_based=1\nstonewall=1\n",
        d.path
    );
    for z in 0..zones {
        text.push_str(&format!(
            "\n[zone{z}]\nrw=read\nbs=1M\noffset={}\nsize={step}\n",
            u64::from(z) * step
        ));
    }
    text.push_str("\n[random]\nrw=randread\nbs=4k\nsize=100%\n");
    text
}

/// What the reads found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// The block device read, as the user named it.
    pub device: String,
    /// The sequential read rate at each point.
    pub zones: Vec<ZoneRate>,
    /// Mean latency of one 4 KiB random read, in ms.
    pub random_read_ms: f64,
    /// The catalog entry.
    pub entry: String,
}

/// The zone rates and random latency from fio's JSON, and the catalog entry they make.
pub(crate) fn calibration(
    d: &BlockDevice,
    rpm: Option<u32>,
    fio_json: &str,
    when: &str,
) -> Result<Calibration> {
    let v: Value = serde_json::from_str(&fio_json[fio_json.find('{').unwrap_or(0)..])
        .map_err(|e| MeasureError::Failed(format!("fio printed no JSON: {e}")))?;
    let jobs = v["jobs"].as_array().cloned().unwrap_or_default();
    let mut zones = Vec::new();
    let mut random_read_ms = None;
    let step = jobs
        .first()
        .and_then(|j| j["job options"]["size"].as_str()?.parse::<u64>().ok())
        .unwrap_or(0);
    for j in &jobs {
        let name = j["jobname"].as_str().unwrap_or("");
        if let Some(z) = name
            .strip_prefix("zone")
            .and_then(|z| z.parse::<u64>().ok())
        {
            zones.push(ZoneRate {
                offset_bytes: z * step,
                mb_s: j["read"]["bw_bytes"].as_f64().unwrap_or(0.0) / 1e6,
            });
        } else if name == "random" {
            random_read_ms = j["read"]["lat_ns"]["mean"].as_f64().map(|ns| ns / 1e6);
        }
    }
    let (Some(first), Some(random_read_ms)) = (zones.first().map(|z| z.mb_s), random_read_ms)
    else {
        return MeasureError::fail("fio's JSON lacks the zone or random jobs");
    };
    let entry = entry(d, rpm, &zones, first, random_read_ms, when);
    Ok(Calibration {
        device: d.path.clone(),
        zones,
        random_read_ms,
        entry,
    })
}

/// The catalog file of one calibrated disk: what the reads measured, the rest assumed and
/// said so in its sources.
fn entry(
    d: &BlockDevice,
    rpm: Option<u32>,
    zones: &[ZoneRate],
    outer: f64,
    random_ms: f64,
    when: &str,
) -> String {
    let model = d.model.clone().unwrap_or_else(|| d.name.clone());
    let inner = zones.last().map_or(outer, |z| z.mb_s).min(outer);
    let source = format!(
        "zpoolsim calibrate on {}, {when}: fio reads with O_DIRECT",
        d.path
    );
    let (interface, gbps, medium) = protocol(d);
    let mut sources = measured_sources(&source);
    let mut t = toml::Table::new();
    t.insert(
        "id".into(),
        crate::system_toml::catalog_id(&format!("calibrated {model}")).into(),
    );
    t.insert(
        "vendor".into(),
        d.vendor.clone().unwrap_or_else(|| "unknown".into()).into(),
    );
    t.insert("model".into(), model.into());
    t.insert("medium".into(), medium.into());
    t.insert("interface".into(), interface.into());
    t.insert("interface_gbps".into(), gbps.into());
    t.insert("capacity_bytes".into(), (d.size_bytes as i64).into());
    t.insert("logical_sector".into(), i64::from(d.logical_sector).into());
    t.insert(
        "physical_sector".into(),
        i64::from(d.physical_sector).into(),
    );
    t.insert("seq_outer_mb_s".into(), round(outer).into());
    t.insert("seq_inner_mb_s".into(), round(inner).into());
    t.insert("queue_depth".into(), 32.into());
    if medium == "hdd" {
        seek(&mut t, &mut sources, rpm, random_ms, &source);
    }
    t.insert("zones".into(), zone_tables(zones).into());
    t.insert("sources".into(), sources.into());
    let mut doc = toml::Table::new();
    doc.insert("disk".into(), vec![toml::Value::Table(t)].into());
    format!(
        "# A catalog entry measured by zpoolsim calibrate: pass it with --catalog FILE.\n{}",
        toml::to_string(&doc).unwrap_or_default()
    )
}

/// The interface, its usual line rate and the medium, from the transport the kernel names
/// (SATA where it names none).
fn protocol(d: &BlockDevice) -> (&'static str, f64, &'static str) {
    let (interface, gbps) = match d.transport.as_deref() {
        Some("sas") => ("sas", 12.0),
        Some("nvme") => ("nvme", 32.0),
        _ => ("sata", 6.0),
    };
    let medium = match (interface, d.rotational) {
        ("nvme", _) => "nvme",
        (_, true) => "hdd",
        _ => "ssd",
    };
    (interface, gbps, medium)
}

/// The entry's sources: the run for what it measured, an assumption named for the link
/// rate and queue depth no read measures.
fn measured_sources(source: &str) -> toml::Table {
    let mut sources = toml::Table::new();
    sources.insert("default".into(), source.into());
    sources.insert(
        "interface_gbps".into(),
        "assumed: the interface's usual line rate".into(),
    );
    sources.insert(
        "queue_depth".into(),
        "assumed: SATA NCQ, 32 commands".into(),
    );
    sources
}

/// A hard disk's rpm and average seek: a 4 KiB random read waits for a seek and half a turn on
/// average, so the seek is the mean read less half a turn.
fn seek(
    t: &mut toml::Table,
    sources: &mut toml::Table,
    rpm: Option<u32>,
    random_ms: f64,
    source: &str,
) {
    let rpm = match rpm.filter(|&r| r > 0) {
        Some(r) => r,
        None => {
            sources.insert(
                "rpm".into(),
                "assumed: 7200 rpm (the disk did not say its speed)".into(),
            );
            7200
        }
    };
    let seek = (random_ms - 30_000.0 / f64::from(rpm)).max(0.1);
    t.insert("rpm".into(), i64::from(rpm).into());
    t.insert("avg_seek_read_ms".into(), round(seek).into());
    let why =
        format!("{source}: mean 4 KiB random read {random_ms:.2} ms less half a turn at {rpm} rpm");
    sources.insert("avg_seek_read_ms".into(), why.into());
}

fn zone_tables(zones: &[ZoneRate]) -> Vec<toml::Value> {
    zones
        .iter()
        .map(|z| {
            let mut t = toml::Table::new();
            t.insert("offset_bytes".into(), (z.offset_bytes as i64).into());
            t.insert("mb_s".into(), round(z.mb_s).into());
            t.into()
        })
        .collect()
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Reads the device with fio (read-only) and makes its catalog entry.
pub fn run(device: &str, zones: u32, runtime_s: u32) -> Result<Calibration> {
    if runner::which("fio").is_none() {
        return MeasureError::refuse("fio is not installed (the Debian package fio)");
    }
    let devices = lsblk::parse(&runner::run("lsblk", &["-J", "-b", "-O"])?)?;
    let status = runner::run("zpool", &["status"]).unwrap_or_default();
    let d = check(device, &devices, &status)?;
    refuse_labelled(device, &d)?;
    if d.size_bytes < u64::from(zones) << 20 {
        return MeasureError::refuse(format!(
            "{device} is smaller than {zones} MiB: too small for {zones} zones"
        ));
    }
    let rpm = runner::run("smartctl", &["-i", "-j", &d.path])
        .ok()
        .and_then(|j| parse::smartctl::parse(&j).ok())
        .and_then(|s| s.rotation_rate);
    let result = runner::fio_readonly(&job(&d, zones, runtime_s));
    calibration(&d, rpm, &result?, &parse::utc(runner::now_unix()))
}
