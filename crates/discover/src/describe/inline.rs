//! A disk written inline: what the machine read of it (capacity, sectors, rotation, model),
//! and for the rates no tool shows, a typical figure for its kind, each cited as assumed.

use super::disks::Facts;
use super::places::Place;
use super::Leaf;

/// The inline model table and the note of what in it is assumed.
pub(super) fn disk(f: &Facts, resolved: &Leaf, at: &Place) -> (toml::Table, String) {
    let mut assumed: Vec<String> = Vec::new();
    let interface = interface(f, at, &mut assumed);
    let (medium, rpm) = medium(f, resolved, interface, &mut assumed);
    let outer = outer_rate(medium, interface, rpm);
    assumed.push(format!(
        "seq_outer_mb_s {outer} (typical of its kind; `zpoolsim calibrate --raw` measures it)"
    ));
    let gbps = f.link_gbps.unwrap_or(match interface {
        "sas" => 12.0,
        "nvme" => 32.0,
        "scsi" => 2.56,
        _ => 6.0,
    });
    let queue_depth = f.queue_depth.filter(|&q| q > 0).unwrap_or_else(|| {
        assumed.push("queue depth 32".into());
        32
    });
    let model = f.model.clone().unwrap_or_else(|| match resolved {
        Leaf::File(_) => "file vdev".to_string(),
        _ => "disk of unknown model".to_string(),
    });
    let mut t = toml::Table::new();
    t.insert("id".into(), crate::system_toml::catalog_id(&model).into());
    t.insert("vendor".into(), vendor(f, &model).into());
    t.insert("model".into(), model.into());
    t.insert("medium".into(), medium.into());
    t.insert("interface".into(), interface.into());
    t.insert("interface_gbps".into(), gbps.into());
    t.insert(
        "capacity_bytes".into(),
        (f.capacity_bytes.max(512) as i64).into(),
    );
    t.insert("logical_sector".into(), i64::from(f.logical_sector).into());
    // A physical sector is never smaller than the logical one (Linux raises it to the
    // logical size); a smaller reading is a tool's misreport.
    t.insert(
        "physical_sector".into(),
        i64::from(f.physical_sector.max(f.logical_sector)).into(),
    );
    if let Some(rpm) = rpm {
        t.insert("rpm".into(), i64::from(rpm).into());
    }
    t.insert("seq_outer_mb_s".into(), outer.into());
    t.insert("queue_depth".into(), i64::from(queue_depth).into());
    let why = assumed.join("; ");
    t.insert("sources".into(), sources(f, &why).into());
    (t, why)
}

/// The protocol the disk speaks: NVMe where it sits on a link, else what the machine said,
/// SATA where it said nothing (or said NVMe of a disk behind a controller).
fn interface(f: &Facts, at: &Place, assumed: &mut Vec<String>) -> &'static str {
    if f.interface.is_none() {
        assumed.push("interface sata".into());
    }
    match (at, f.interface) {
        (Place::Link(_), _) => "nvme",
        (_, Some("nvme")) | (_, None) => "sata",
        (_, Some(i)) => i,
    }
}

/// The medium and spindle speed: NVMe is flash, a reported rpm of 0 is solid state, a
/// rotational disk without a speed is taken at 7200 rpm.
fn medium(
    f: &Facts,
    resolved: &Leaf,
    interface: &str,
    assumed: &mut Vec<String>,
) -> (&'static str, Option<u32>) {
    match (interface, f.rpm, f.rotational) {
        ("nvme", ..) => ("nvme", None),
        (_, Some(0), _) => ("ssd", None),
        (_, Some(rpm), _) => ("hdd", Some(rpm)),
        (_, None, true) => {
            assumed.push("7200 rpm (the disk is rotational but did not say its speed)".into());
            ("hdd", Some(7200))
        }
        (_, None, false) => {
            if matches!(resolved, Leaf::File(_) | Leaf::Missing) {
                assumed.push("solid state (a file or a missing device shows no medium)".into());
            }
            ("ssd", None)
        }
    }
}

/// The one default source: the tools that read the disk and what was assumed.
fn sources(f: &Facts, why: &str) -> toml::Table {
    let read = if f.seen_by.is_empty() {
        "nothing".to_string()
    } else {
        f.seen_by.join(", ")
    };
    let mut sources = toml::Table::new();
    sources.insert(
        "default".into(),
        format!("zpoolsim discover: read by {read}; assumed: {why}").into(),
    );
    sources
}

/// Outer-track (or flash) sequential rates typical of current drives' data sheets, MB/s.
fn outer_rate(medium: &str, interface: &str, rpm: Option<u32>) -> f64 {
    match (medium, interface, rpm) {
        ("nvme", ..) => 3000.0,
        ("ssd", "sas", _) => 1000.0,
        ("ssd", ..) => 500.0,
        (_, _, Some(r)) if r <= 5900 => 180.0,
        (_, _, Some(r)) if r <= 7200 => 250.0,
        _ => 200.0,
    }
}

fn vendor(f: &Facts, model: &str) -> String {
    f.vendor
        .clone()
        .or_else(|| model.split_whitespace().next().map(String::from))
        .unwrap_or_else(|| "unknown".into())
}
