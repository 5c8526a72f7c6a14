//! /proc/cpuinfo and /proc/meminfo: the host's CPU (name, cores, threads, clock, the SIMD and
//! SHA extensions the ZFS checksum and parity kernels use) and its memory.

use serde::Serialize;
use std::collections::BTreeSet;

/// The host's CPU as /proc/cpuinfo describes it, in the words the model's catalog uses.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cpu {
    /// The model name (`model name`), as the first processor gives it.
    pub name: String,
    /// Sockets (distinct `physical id`s).
    pub sockets: u32,
    /// Physical cores over all sockets.
    pub cores: u32,
    /// Hardware threads over all sockets.
    pub threads: u32,
    /// The clock the kernel reports now (`cpu MHz`), in GHz; it varies with power states.
    pub ghz: Option<f64>,
    /// The widest SIMD the flags show: avx512, avx2, sse2 or scalar (the model's words).
    pub simd: &'static str,
    /// Whether the flags show the SHA extensions (`sha_ni`).
    pub sha_ni: bool,
}

/// Reads x86 /proc/cpuinfo; `None` when it lists no processor.
pub fn parse_cpuinfo(text: &str) -> Option<Cpu> {
    let mut threads = 0;
    let mut cores = BTreeSet::new();
    let mut sockets = BTreeSet::new();
    let (mut name, mut mhz, mut flags) = (None, None, String::new());
    let mut socket = String::new();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key.trim() {
            "processor" => threads += 1,
            "model name" => name = name.or(Some(value.to_string())),
            "cpu MHz" => mhz = mhz.or(value.parse::<f64>().ok()),
            "flags" if flags.is_empty() => flags = value.to_string(),
            "physical id" => {
                socket = value.to_string();
                sockets.insert(socket.clone());
            }
            "core id" => {
                cores.insert((socket.clone(), value.to_string()));
            }
            _ => {}
        }
    }
    if threads == 0 {
        return None;
    }
    let has = |f: &str| flags.split_whitespace().any(|x| x == f);
    let simd = if has("avx512f") {
        "avx512"
    } else if has("avx2") {
        "avx2"
    } else if has("sse2") {
        "sse2"
    } else {
        "scalar"
    };
    Some(Cpu {
        name: name.unwrap_or_else(|| "unknown CPU".into()),
        sockets: sockets.len().max(1) as u32,
        cores: if cores.is_empty() {
            threads
        } else {
            cores.len() as u32
        },
        threads,
        ghz: mhz.map(|m| (m / 1000.0 * 100.0).round() / 100.0),
        simd,
        sha_ni: has("sha_ni"),
    })
}

/// MemTotal of /proc/meminfo in bytes: the memory the kernel manages (a little below what is
/// installed: firmware and the kernel image keep the rest).
pub fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}
