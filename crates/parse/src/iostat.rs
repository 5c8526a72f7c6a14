//! `zpool iostat -v [-p] POOL INTERVAL`: operations and bytes per second of every vdev and
//! disk, one report per interval. The first report averages since the pool was imported and
//! is not a sample of the run. Values are exact with `-p`, else zpool's rounded binary units
//! (`2.81M`), which zfs-fuse always prints.

use serde::Serialize;

/// One row of a report: a pool, a top-level vdev or a disk.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The pool's, vdev's or disk's name as zpool prints it.
    pub name: String,
    /// The top-level vdev a disk belongs to (None for the pool and vdev rows, and for a disk
    /// that is a top-level vdev of its own, whose vdev is itself).
    pub vdev: Option<String>,
    /// A disk (a leaf), not a vdev or the pool.
    pub leaf: bool,
    /// Read operations per second.
    pub read_ops: f64,
    /// Write operations per second.
    pub write_ops: f64,
    /// Bytes read per second.
    pub read_bytes: f64,
    /// Bytes written per second.
    pub write_bytes: f64,
}

/// Splits the output into reports and reads each row; heading rows (`logs`, `cache`) and
/// separators are skipped.
pub fn parse(text: &str) -> Vec<Vec<Row>> {
    let mut reports: Vec<Vec<Row>> = Vec::new();
    let mut top: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("capacity") {
            reports.push(Vec::new());
            continue;
        }
        let Some(report) = reports.last_mut() else {
            continue;
        };
        let f: Vec<&str> = trimmed.split_whitespace().collect();
        if f.len() != 7 || f[0] == "pool" || trimmed.starts_with('-') {
            continue;
        }
        let values: Option<Vec<f64>> = f[3..].iter().map(|v| number(v)).collect();
        let Some(v) = values else { continue };
        let depth = line.len() - line.trim_start().len();
        if depth == 0 {
            top = None;
        } else if depth <= 2 {
            top = Some(f[0].to_string());
        } else if let Some(parent) = report.last_mut().filter(|r| r.vdev.is_none()) {
            parent.leaf = false;
        }
        report.push(Row {
            name: f[0].to_string(),
            vdev: if depth > 2 { top.clone() } else { None },
            leaf: depth >= 2,
            read_ops: v[0],
            write_ops: v[1],
            read_bytes: v[2],
            write_bytes: v[3],
        });
    }
    reports
}

/// `117K`, `2.81M`, `0`, or an exact integer; zpool's units are binary (zfs_nicenum).
fn number(text: &str) -> Option<f64> {
    let units = ["K", "M", "G", "T", "P", "E"];
    for (i, unit) in units.iter().enumerate() {
        if let Some(n) = text.strip_suffix(unit) {
            return Some(n.parse::<f64>().ok()? * 1024f64.powi(i as i32 + 1));
        }
    }
    text.parse().ok()
}
