//! /proc/diskstats: the milliseconds each block device was busy (io_ticks, the 10th statistic),
//! sampled before and after a run for the disks' utilisation, which `zpool iostat` lacks.

use std::collections::BTreeMap;

/// Device name -> io_ticks in ms.
pub fn busy_ms(text: &str) -> BTreeMap<String, u64> {
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            // major minor name, then reads merged sectors ms, writes merged sectors ms,
            // in-flight, io_ticks, ...
            Some((f.get(2)?.to_string(), f.get(12)?.parse().ok()?))
        })
        .collect()
}

/// Busy fraction of each device over `seconds` between two samples.
pub fn utilization(
    before: &BTreeMap<String, u64>,
    after: &BTreeMap<String, u64>,
    seconds: f64,
) -> BTreeMap<String, f64> {
    after
        .iter()
        .filter_map(|(name, &end)| {
            let start = *before.get(name)?;
            let busy = end.checked_sub(start)? as f64 / 1000.0;
            (seconds > 0.0).then(|| (name.clone(), (busy / seconds).min(1.0)))
        })
        .collect()
}
