//! What the data path costs the CPU, built from parts (docs/zfs-internals.md §3): the
//! checksum of every block, raidz/dRAID parity of written blocks, compression, the copy between
//! the application's buffer and the ARC, each system call, and each zio through the pipeline.
//! Each part is a measured figure in cycles per byte (or per operation) on a reference core of
//! 2012, scaled to the host's core by its generation and clock.

use crate::release::Release;
use crate::station::{Kind, Station};
use model::dataset::{Checksum, Compression};
use model::hardware::{CpuModel, Simd};
use model::release::{Platform, ZfsRelease};
use model::system::Host;
use model::workload::Data;

/// The CPU's work per job.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct CpuWork {
    /// Reference cycles per job on all cores while a request is under way: the kernel's work
    /// and the application's.
    pub cycles: f64,
    /// Reference cycles per job of the txg's writeback (compression, checksums, parity, the
    /// write zios): spa_sync's threads do them after the writes have returned.
    pub txg_cycles: f64,
    /// Of which the application's own threads spend, and how many threads there are.
    pub app_cycles: f64,
    pub app_threads: u32,
    /// Seconds per job the application's threads wait on other threads besides their cycles
    /// (POSIX AIO's hand-off): time on their station, no core's.
    pub app_wait_s: f64,
    /// Whether the application waits on each job (random I/O, synchronous writes): its threads
    /// are then part of the cycle; for a stream, prefetch and the txg decouple them.
    pub app_in_cycle: bool,
    /// Reference cycles per job on the thread that writes the ZIL's commits: one at a time per
    /// dataset (zil.c's zl_writer to ZoL 0.7, zl_issuer_lock from 0.8), whichever writer takes
    /// it, so a single core's rate bounds every writer's commits together.
    pub zil_writer_cycles: f64,
}

/// The application's threads and the CPU as stations. The application's own cycles are its
/// threads' station when it waits on each job: the CPU station then carries the kernel's
/// work alone, so a job's time counts them once. A job that waits carries the txg's
/// writeback on a station of its own that bounds the rate off the cycle, as the disks' is;
/// a stream, decoupled from its records anyway, counts it with the rest.
pub(crate) fn stations(host: &Host, work: &CpuWork) -> Vec<Station> {
    let cpu = &host.cpu;
    let cores = cpu.cores * host.sockets.max(1);
    let threads = work.app_threads.min(cores).max(1);
    let detail = format!(
        "{threads} thread(s) making their system calls and copying their data at {} GHz",
        cpu.ghz
    );
    let app = Station::new(
        "application threads",
        Kind::Thread,
        detail,
        seconds(cpu, work.app_cycles) + work.app_wait_s,
    )
    .servers(threads)
    .in_cycle(work.app_in_cycle);
    let detail = format!("{}: {cores} cores x {} GHz", cpu.name, cpu.ghz);
    let kernel = if work.app_in_cycle {
        work.cycles - work.app_cycles
    } else {
        work.cycles + work.txg_cycles
    };
    let mut out = vec![
        app,
        Station::new("cpu", Kind::Cpu, detail.clone(), seconds(cpu, kernel)).servers(cores),
    ];
    if work.zil_writer_cycles > 0.0 {
        let detail = format!(
            "one thread at a time issuing the ZIL's commits at {} GHz",
            cpu.ghz
        );
        let s = seconds(cpu, work.zil_writer_cycles);
        out.push(Station::new("zil writer", Kind::Cpu, detail, s).in_cycle(false));
    }
    if work.app_in_cycle && work.txg_cycles > 0.0 {
        let all = seconds(cpu, work.cycles + work.txg_cycles);
        out.push(
            Station::new("cpu (with the txg's writeback)", Kind::Cpu, detail, all)
                .servers(cores)
                .in_cycle(false),
        );
    }
    out
}

/// How much longer a core of `year` takes than a 2012 core (Sandy/Ivy Bridge) at the same
/// clock for the same kernel code. An APPROXIMATION from the trend of SPEC CPU integer
/// results per GHz of one core (spec.org): K8/NetBurst 1.6, Core 2 / K10 1.3, Nehalem 1.15,
/// Haswell/Broadwell 0.9, Skylake and Zen 1-2 0.85, Ice Lake / Zen 3 0.75, Sapphire Rapids /
/// Zen 4 and later 0.7. The year is the core's: a later part of an older core keeps its core's
/// speed per clock (pruiz's Xeon X5687 of 2011 is a Westmere, Nehalem's 32 nm shrink of 2010).
pub(crate) fn generation_factor(year: u32) -> f64 {
    match year {
        0..=2006 => 1.6,
        2007..=2008 => 1.3,
        2009..=2010 => 1.15,
        2011..=2013 => 1.0,
        2014..=2016 => 0.9,
        2017..=2019 => 0.85,
        2020..=2022 => 0.75,
        _ => 0.7,
    }
}

/// Seconds one core of `cpu` takes for `cycles` reference cycles.
pub(crate) fn seconds(cpu: &CpuModel, cycles: f64) -> f64 {
    cycles * generation_factor(cpu.year) / (cpu.ghz * 1e9)
}

/// Copying between an application's buffer and the ARC (uiomove, memcpy): ~7 GB/s on one 3.5
/// GHz 2012 core (STREAM copy figures of the time), 0.5 cycles per byte.
pub(crate) const COPY_BYTE: f64 = 0.5;

/// Entering and leaving the kernel for one system call that does no I/O (lseek, a cached
/// fstat): ~0.3 us on a 2012 core (lmbench lat_syscall of the time), 1,000 cycles.
pub(crate) const SYSCALL: f64 = 1_000.0;

/// Cycles per byte of the checksum a block gets, on the reference core: fletcher4 scalar 0.66,
/// SSE2 0.29, AVX2 0.19, AVX-512 0.13 (OpenZFS fletcher_4_bench: 6.6 / 14.8 / 22.4 / 33.8 GB/s
/// on a 2017 Xeon Platinum 8170 core near 3.7 GHz); fletcher2 half of fletcher4 scalar;
/// SHA-256 7.8 (0.45 GB/s) or 1.9 with SHA-NI (1.6 GB/s); SHA-512 4.3; Skein 4.5; Edon-R 2.0;
/// BLAKE3 0.6 (AVX2, ~5 GB/s).
pub(crate) fn checksum_byte(checksum: Checksum, release: &Release, cpu: &CpuModel) -> f64 {
    let simd = if release.simd_checksums {
        cpu.simd
    } else {
        Simd::Scalar
    };
    let fletcher4 = match simd {
        Simd::Scalar => 0.66,
        Simd::Sse2 => 0.29,
        Simd::Avx2 => 0.19,
        Simd::Avx512 => 0.13,
    };
    match checksum {
        Checksum::On if release.fletcher4_default => fletcher4,
        Checksum::On | Checksum::Fletcher2 => 0.33,
        Checksum::Fletcher4 => fletcher4,
        Checksum::Off => 0.0,
        Checksum::Sha256 if cpu.sha_ni => 1.9,
        Checksum::Sha256 => 7.8,
        Checksum::Sha512 => 4.3,
        Checksum::Skein => 4.5,
        Checksum::Edonr => 2.0,
        Checksum::Blake3 => 0.6,
    }
}

/// Cycles per byte the kernel's random device costs the thread reading it (the generator and
/// its copy to the reader's buffer), on the reference core. Linux before 4.8 extracted each 10
/// bytes with SHA-1 from the entropy pool: `dd if=/dev/urandom of=/dev/null bs=1M` ran at 13.4
/// MB/s (pthree.org, 2016; CPU not stated, a 3 GHz reference core turns it into cycles: 224 a
/// byte). From Linux 4.8 and FreeBSD 12 a ChaCha20 generator serves it: the same dd ran at
/// 512 MB/s on Linux 5.10 and 511 MB/s on FreeBSD 13.1, both in VMs on an idle Ryzen 7 5800X
/// (openzfs/zfs PR 13983). One busy core of an idle 5800X runs at its max boost, 4.7 GHz
/// (`boost.rs`; base 3.8 GHz, boost 4.7: AMD's figures as TechRadar gives them,
/// https://global.techradar.com/it-it/news/amd-ryzen-7-5800x-supera-intel-core-i9-10900k-in-single-core-nel-test-cpu-z):
/// 12.2 reference cycles a byte at Zen 3's generation.
/// The kernel is taken from the release: ZoL before 0.7 ran on the older kernels, later
/// releases on 4.8 and after (RHEL 7's 3.10 is the exception). No figure for illumos or
/// Solaris.
pub(crate) fn urandom_byte(release: &Release) -> Option<f64> {
    const PTHREE_REFERENCE_HZ: f64 = 3e9;
    // The 5800X's lone dd at its boost clock (above).
    let chacha20 = 4.7e9 / generation_factor(2020) / 512e6;
    match (release.platform, release.zfs) {
        (Platform::Linux, zfs) if zfs.at_least(0, 7) => Some(chacha20),
        (Platform::Linux | Platform::Fuse, _) => Some(PTHREE_REFERENCE_HZ / 13.4e6),
        (Platform::FreeBsd, ZfsRelease::FreeBsd { major, .. }) if major >= 12 => Some(chacha20),
        (Platform::FreeBsd | Platform::Solaris, _) => None,
    }
}

/// Cycles per byte of data to generate `parity` parity columns, on the reference core: scalar
/// P 0.4, PQ 0.9, PQR 1.6; AVX2 P 0.07, PQ 0.1, PQR 0.23 (OpenZFS vdev_raidz_bench: scalar gen
/// P 9.1, PQR 2.3 GB/s, AVX2 gen P 52.7, PQ 36.3, PQR 16.3 GB/s near 3.7 GHz; scalar PQ taken
/// between).
pub(crate) fn parity_byte(parity: u32, release: &Release, cpu: &CpuModel) -> f64 {
    let simd = release.simd_parity && cpu.simd >= Simd::Sse2;
    match (parity, simd) {
        (0, _) => 0.0,
        (1, false) => 0.4,
        (2, false) => 0.9,
        (_, false) => 1.6,
        (1, true) => 0.07,
        (2, true) => 0.1,
        (_, true) => 0.23,
    }
}

/// The algorithm `compression` names on `release`: `on` is lz4 with the feature (OpenZFS),
/// lzjb before; not set is the release's default.
pub(crate) fn algorithm(compression: Compression, release: &Release) -> Compression {
    match compression {
        Compression::Default if release.lz4_default => Compression::Lz4,
        Compression::Default => Compression::Off,
        Compression::On if release.zfs.at_least(0, 6) => Compression::Lz4,
        Compression::On => Compression::Lzjb,
        other => other,
    }
}

/// Cycles per byte to compress and to decompress `data` with `algorithm`, on the reference
/// core (lz4 and zstd READMEs' benchmarks, scaled: lz4 6.3 / 1.0 on text; lzjb twice lz4's
/// compression; gzip-6 100 / 13; zstd-3 12 / 4). Runs of zeros or a short pattern compress
/// at memory speed, and lz4 gives up early on incompressible data (1.4): random data of a
/// dataset whose `ratio` is 1.
pub(crate) fn compress_byte(algorithm: Compression, data: Data, ratio: f64) -> (f64, f64) {
    let text = match algorithm {
        Compression::Off | Compression::Default | Compression::On => return (0.0, 0.0),
        Compression::Lz4 => (6.3, 1.0),
        Compression::Lzjb => (12.6, 2.0),
        Compression::Gzip { .. } => (100.0, 13.0),
        Compression::Zstd { .. } => (12.0, 4.0),
    };
    let zeros = (0.5, 0.5);
    match data {
        Data::Zeros | Data::Pattern => zeros,
        Data::Random if algorithm == Compression::Lz4 && ratio <= 1.0 => (1.4, 0.0),
        Data::Urandom { .. } if algorithm == Compression::Lz4 => (1.4, 0.0),
        // Random blocks among zeros: each part at its own cost.
        Data::Sparse { fill_pct } => {
            let random = f64::from(fill_pct) / 100.0;
            let blocks = if algorithm == Compression::Lz4 {
                (1.4, 0.0)
            } else {
                text
            };
            (
                random * blocks.0 + (1.0 - random) * zeros.0,
                random * blocks.1 + (1.0 - random) * zeros.1,
            )
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{cpu, release};

    #[test]
    fn simd_only_where_the_release_has_it() {
        let avx2 = cpu(Simd::Avx2, 2015);
        assert_eq!(checksum_byte(Checksum::On, &release("2.2"), &avx2), 0.19);
        assert_eq!(
            checksum_byte(Checksum::On, &release("freebsd-10.2"), &avx2),
            0.66
        );
        assert_eq!(
            checksum_byte(Checksum::On, &release("solaris-2008"), &avx2),
            0.33
        );
        assert_eq!(parity_byte(2, &release("2.2"), &avx2), 0.1);
        assert_eq!(parity_byte(2, &release("freebsd-10.2"), &avx2), 0.9);
    }

    #[test]
    fn cycles_become_seconds_by_clock_and_generation() {
        // 2.5e9 reference cycles on a 2.5 GHz 2008 core: 1.3 s.
        assert!((seconds(&cpu(Simd::Sse2, 2008), 2.5e9) - 1.3).abs() < 1e-12);
        assert_eq!(
            algorithm(Compression::Default, &release("2.2")),
            Compression::Lz4
        );
        assert_eq!(
            algorithm(Compression::Default, &release("2.1")),
            Compression::Off
        );
        assert_eq!(
            algorithm(Compression::On, &release("solaris-2008")),
            Compression::Lzjb
        );
    }
}
