//! Every constant of the performance model that is fitted or derived from a measurement
//! rather than read from a data sheet or the ZFS source, in one place, each with how it was
//! obtained. Each is global: one value for every system and case. Facts with a direct source
//! stay next to their use (disk.rs, bus.rs, profile.rs).

/// Per-command time a disk spends that a queue or a cache cannot hide (command decode,
/// setup, completion), seconds. Fitted once: seed 004's write-through requests take
/// 6.1 ms + size / media rate (the 256 KiB..1 MiB rows: 10.0 - 3.9, 21.7 - 15.6 ms), of which
/// one revolution at 10000 rpm is 6.0 ms; the rest, 0.1 ms, is this.
pub const DISK_COMMAND_OVERHEAD_S: f64 = 0.1e-3;

/// PCIe: the share of the raw rate carrying data is
/// `PCIE_LINK_CEILING * payload / (payload + PCIE_PACKET_OVERHEAD_BYTES)`. Derived exactly from
/// the two facts seed 000 measured on one PCIe 1.0 x1 link (SiI3132): 147 MB/s of 250 with
/// 128-byte payloads, 175 MB/s with 256-byte payloads. The 60 bytes stand for the TLP header,
/// framing, sequence number and LCRC (~24 B) plus the link's ACK and flow-control packets and
/// the chip's gaps; the ceiling for the rest of the link layer.
pub const PCIE_PACKET_OVERHEAD_BYTES: f64 = 60.24;
pub const PCIE_LINK_CEILING: f64 = 0.8647;

/// Parallel buses (PCI, PCI-X): a storage controller's DMA moves bursts of this many bytes
/// (a few cache lines: the SATA controllers' PRD-driven bursts)...
pub const PARALLEL_BUS_BURST_BYTES: f64 = 128.0;
/// ...each costing this many bus clocks beyond its data clocks (arbitration, address and
/// attribute phases, turnaround, the target's initial wait states). Fitted once, on the fact
/// seed 000 reports for a SiI3124 alone in a 32-bit/33 MHz PCI slot: 87 MB/s of 133, so
/// 32 / (32 + c) = 0.6525, c = 17.0. Seed 001's shared 64-bit/133 MHz PCI-X bus then gets
/// 16 / (16 + 17) = 48% of 1066 MB/s = 517 MB/s: not fitted to it.
pub const PARALLEL_BUS_OVERHEAD_CLOCKS: f64 = 17.04;

/// CPU cost of the ZFS data path of an era, in cycles of one core.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuCosts {
    /// Per byte read from disk: checksum verification and the copy out to the application.
    pub read_byte: f64,
    /// Per byte written: the copy in from the application, the checksum, the dirty-buffer
    /// bookkeeping of the open transaction group.
    pub write_byte: f64,
    /// Of `read_byte` and `write_byte`, the copy between the application's buffer and the
    /// ARC, done by the application's own thread in read(2)/write(2).
    pub copy_byte: f64,
    /// Per byte of parity generated (raidz, dRAID writes).
    pub parity_byte: f64,
    /// Per zio (logical, vdev and leaf): the pipeline stages, the queue, the driver and the
    /// interrupt.
    pub zio: f64,
    /// Per byte compressed on write and decompressed on read, when the dataset compresses.
    pub compress_byte: f64,
    pub decompress_byte: f64,
}

/// LZ4 per core (lz4 README benchmark, Core i7-9700K at 4.9 GHz): compression 780 MB/s,
/// decompression 4970 MB/s, so 6.3 and 1.0 cycles per byte. Used for both eras (lzjb, the
/// compressor of 2008, is of the same order).
const LZ4_COMPRESS_BYTE: f64 = 6.3;
const LZ4_DECOMPRESS_BYTE: f64 = 1.0;

/// Solaris/OpenSolaris 2006-2008 and FreeBSD ZFS v28: fletcher2 checksums in scalar C, the
/// copy through a 2008 memory system, taskq-driven zio pipeline.
/// - `parity_byte` 1.0: a scalar 64-bit XOR loop over the data columns, memory bound.
/// - `read_byte` 2.0: fletcher2 (~0.3 cycles/byte of arithmetic, data cold from DMA: one
///   memory read) plus copyout to the reader (~1.5 cycles/byte on a K8 with DDR2).
/// - `zio` and `write_byte`: fitted once, together, on the two CPU-bound measurements of the
///   corpus (seed 000, 2 cores x 2.1 GHz, both ~90% busy in the raidz1-7 read): the raidz1-7
///   read at 435 MB/s = 3320 records/s each making 1 logical + 1 vdev + 6 column zios, and the
///   raidz1-7 write at 235 MB/s = 1793 records/s making 1 + 1 + 7 zios with 1/6 parity:
///   435e6 * 2 + 3320 * 8 * zio = 4.2e9  =>  zio = 125,000 cycles (60 us);
///   235e6 * (write_byte + 1/6) + 1793 * 9 * zio = 4.2e9  =>  write_byte = 9.1.
///   The stripe-7 cases of the same machine are then predictions (not fitted).
pub const CPU_2008: CpuCosts = CpuCosts {
    read_byte: 2.0,
    write_byte: 9.1,
    copy_byte: 1.5,
    parity_byte: 1.0,
    zio: 125_000.0,
    compress_byte: LZ4_COMPRESS_BYTE,
    decompress_byte: LZ4_DECOMPRESS_BYTE,
};

/// OpenZFS 2.x on a SIMD-capable core: fletcher4 at 15-30 GB/s per core (zfs-facts.md §3,
/// SSE2/AVX2: ~0.15 cycles/byte at 3 GHz), copies at ~9 GB/s per core (~0.35 cycles/byte),
/// so ~0.5 cycles/byte read and ~0.7 written (the copy in writes cold lines); parity gen P at
/// 36-52 GB/s AVX2 (~0.1).
/// `zio` 20,000 cycles is an APPROXIMATION, not a measurement: it assumes a core pushes
/// ~150k small zios/s through the pipeline, queue, driver and interrupt. Sensitivity: it is
/// ~97% of the CPU cost of a 4 KiB read (3 zios on a mirror = 60,000 cycles against 2,000 for
/// the bytes) and about half of a 128 KiB record's, so CPU-bound small-block IOPS (NVMe
/// pools at high queue depth) scale as 1 / zio; disk-bound predictions and the validation
/// corpus (all CPU_2008) do not move with it.
pub const CPU_OPENZFS2: CpuCosts = CpuCosts {
    read_byte: 0.5,
    write_byte: 0.7,
    copy_byte: 0.35,
    parity_byte: 0.1,
    zio: 20_000.0,
    compress_byte: LZ4_COMPRESS_BYTE,
    decompress_byte: LZ4_DECOMPRESS_BYTE,
};
