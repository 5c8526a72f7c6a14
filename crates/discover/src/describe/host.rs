//! The `[host]` table: CPU and memory from /proc, the ZFS release from `zfs version`.

use super::Captured;
use crate::system_toml::Section;
use parse::{cpuinfo, release};

pub(super) fn section(c: &Captured) -> Section {
    let mut s = Section::new("[host]");
    s = match c.cpuinfo.as_deref().and_then(cpuinfo::parse_cpuinfo) {
        Some(cpu) => {
            let per_socket = (cpu.cores / cpu.sockets).max(1);
            let threads = (cpu.threads / cpu.sockets).max(per_socket);
            let mut t = inline_cpu(i64::from(per_socket), cpu.ghz.unwrap_or(2.0), era(cpu.simd));
            t.insert("threads".into(), i64::from(threads).into());
            t.insert("simd".into(), cpu.simd.into());
            t.insert("sha_ni".into(), cpu.sha_ni.into());
            s.note(format!("CPU: {} (/proc/cpuinfo)", cpu.name))
                .assumed("cpu", t, "year from its SIMD (AVX-512 2017, AVX2 2013, else 2008); ghz is the clock /proc/cpuinfo showed")
                .read("sockets", i64::from(cpu.sockets))
        }
        None => s.assumed(
            "cpu",
            inline_cpu(4, 2.0, 2015),
            "/proc/cpuinfo was not readable: a 4-core 2 GHz CPU",
        ),
    };
    s = match c.meminfo.as_deref().and_then(cpuinfo::parse_meminfo) {
        Some(bytes) => s.read("ram", bytes as i64),
        None => s.assumed("ram", "16GiB", "/proc/meminfo was not readable"),
    };
    let zfs = c
        .zfs_version
        .as_deref()
        .and_then(release::from_version)
        .or_else(|| {
            c.pool_versions
                .as_deref()
                .and_then(release::from_pool_version)
        });
    match zfs {
        Some(r) => s.read("zfs", r.to_string()),
        None => s.assumed(
            "zfs",
            model::ZfsRelease::default().to_string(),
            "neither `zfs version` nor /sys/module/zfs/version answered: the current OpenZFS",
        ),
    }
    .note("No NICs are written: the bench runs on this host, not across the network.")
}

fn inline_cpu(cores: i64, ghz: f64, year: i64) -> toml::Table {
    let mut t = toml::Table::new();
    t.insert("cores".into(), cores.into());
    t.insert("ghz".into(), ghz.into());
    t.insert("year".into(), year.into());
    t
}

/// The first year a CPU with this SIMD shipped (Skylake-SP, Haswell; SSE2 is older than the
/// catalog's eras).
fn era(simd: &str) -> i64 {
    match simd {
        "avx512" => 2017,
        "avx2" => 2013,
        _ => 2008,
    }
}
