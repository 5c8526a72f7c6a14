//! What native encryption costs the CPU per byte it ciphers, by the code path OpenZFS's
//! crypto (the ICP, module/icp) takes for the cipher, the release and the CPU.
//!
//! The kernel may use the vector registers only between kfpu_begin and kfpu_end, which save
//! and restore the whole extended state (XSAVE/XRSTOR) with preemption and interrupts off
//! (include/os/linux/kernel/linux/simd_x86.h). How often a path pays that decides its cost:
//! - AES-CCM, every release: ccm_mode_encrypt_contiguous_blocks (ccm.c) ciphers one 16-byte
//!   block at a time, two AES block calls per block (the CBC-MAC's and the counter's), and
//!   aes_aesni_encrypt (aes_impl_aesni.c) wraps each call in kfpu_begin/kfpu_end: two state
//!   saves and restores per 16 bytes.
//! - AES-GCM without the AVX path: the same per block (one AES call, one gcm_pclmulqdq_mul,
//!   each wrapped), as OpenZFS PR #9749 describes the code it replaced.
//! - AES-GCM with the AVX path (PR #9749, in ZFS on Linux 0.8.4 and every later release; a CPU
//!   with AVX, AES-NI and PCLMULQDQ, gcm.c gcm_avx_will_work): the ported OpenSSL routine
//!   ciphers and hashes icp_gcm_avx_chunk_size (32 KiB) at a time under one kfpu_begin.
//! - Without AES-NI the ICP runs integer code (aes_amd64.S, gcm_generic.c): no state saves.
//!
//! The per-byte figures are PR #9749's own timings of its two GCM paths on one machine, so
//! their ratio is measured, not assumed; the PR does not name its CPU, so a 3 GHz reference
//! core turns its nanoseconds into cycles (as `cpu::urandom_byte` does).

use crate::release::Release;
use model::dataset::Encryption;
use model::hardware::{CpuModel, Simd};

/// Reference cycles per byte of the block-at-a-time path (two state saves per 16 bytes).
/// PR #9749's encrypt timings of the pclmulqdq path: 373,888 ns for 16 KiB, 751,444 ns for
/// 32 KiB; the second 16 KiB took 377,556 ns, 23.0 ns a byte, 69.1 cycles at 3 GHz.
pub(crate) const PER_BLOCK_BYTE: f64 = 377_556.0 / 16_384.0 * 3.0;

/// Reference cycles per byte of the AVX path: the same table's 16,842 and 31,245 ns for 16
/// and 32 KiB, 14,403 ns for the second 16 KiB: 0.88 ns a byte, 2.6 cycles at 3 GHz.
pub(crate) const GCM_AVX_BYTE: f64 = 14_403.0 / 16_384.0 * 3.0;

/// Cycles per byte without AES-NI (x86 before 2010), table-driven AES in integer code:
/// APPROXIMATION, about 25 (GCM, its GHASH in C) and 40 (CCM, two AES calls per block).
const TABLE_GCM_BYTE: f64 = 25.0;
const TABLE_CCM_BYTE: f64 = 40.0;

/// The ICP's code path for a cipher on a release and CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CipherPath {
    Off,
    /// One 16-byte block at a time, the vector state saved and restored around each AES call.
    PerBlock,
    /// The AVX routine over 32 KiB chunks, one state save each.
    GcmAvx,
    /// Integer AES without AES-NI.
    Table,
}

/// Whether the release carries PR #9749's AVX path: OpenZFS 0.8.4 on (its author's note in
/// openzfs/zfs#10362: "A fix for AES-GCM went into 0.8.4"). Releases outside the OpenZFS line
/// (Solaris, zfs-fuse) have no ICP encryption to measure and take the current code.
fn has_gcm_avx(release: &Release) -> bool {
    release
        .zfs
        .openzfs_version()
        .is_none_or(|version| version >= (0, 8, 4))
}

/// The path `encryption` takes. The catalog's SIMD classes stand for the instruction sets:
/// AVX2 or AVX-512 imply AVX (a CPU recorded as SSE2 with AVX, Sandy and Ivy Bridge, is taken
/// without it); AES-NI is taken from 2010 on.
pub(crate) fn path(encryption: Encryption, release: &Release, cpu: &CpuModel) -> CipherPath {
    let aes_ni = cpu.year >= 2010;
    let avx = matches!(cpu.simd, Simd::Avx2 | Simd::Avx512);
    match encryption {
        Encryption::Off => CipherPath::Off,
        _ if !aes_ni => CipherPath::Table,
        Encryption::Gcm { .. } if avx && has_gcm_avx(release) => CipherPath::GcmAvx,
        Encryption::Gcm { .. } | Encryption::Ccm { .. } => CipherPath::PerBlock,
    }
}

/// Reference cycles per byte of block data to encrypt (or decrypt) and authenticate.
pub(crate) fn cipher_byte(encryption: Encryption, release: &Release, cpu: &CpuModel) -> f64 {
    match (path(encryption, release, cpu), encryption) {
        (CipherPath::Off, _) => 0.0,
        (CipherPath::PerBlock, _) => PER_BLOCK_BYTE,
        (CipherPath::GcmAvx, _) => GCM_AVX_BYTE,
        (CipherPath::Table, Encryption::Ccm { .. }) => TABLE_CCM_BYTE,
        (CipherPath::Table, _) => TABLE_GCM_BYTE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{cpu, release};

    fn byte(enc: &str, zfs: &str, simd: Simd, year: u32) -> f64 {
        cipher_byte(enc.parse().unwrap(), &release(zfs), &cpu(simd, year))
    }

    #[test]
    fn pr_9749_timings_in_cycles() {
        assert!((PER_BLOCK_BYTE - 69.13).abs() < 0.01, "{PER_BLOCK_BYTE}");
        assert!((GCM_AVX_BYTE - 2.637).abs() < 0.001, "{GCM_AVX_BYTE}");
    }

    #[test]
    fn path_by_cipher_release_and_cpu() {
        let zen3 = (Simd::Avx2, 2020);
        assert_eq!(byte("off", "2.1", zen3.0, zen3.1), 0.0);
        assert_eq!(byte("aes-256-gcm", "2.1", zen3.0, zen3.1), GCM_AVX_BYTE);
        // CCM never got a chunked path: two wrapped AES calls per block on every release.
        assert_eq!(byte("aes-256-ccm", "2.2.9", zen3.0, zen3.1), PER_BLOCK_BYTE);
        assert_eq!(byte("aes-128-ccm", "2.4", zen3.0, zen3.1), PER_BLOCK_BYTE);
        // Before 0.8.4 GCM took the same per-block path; 0.8.4 brought the AVX routine.
        assert_eq!(byte("aes-256-gcm", "0.8.3", zen3.0, zen3.1), PER_BLOCK_BYTE);
        assert_eq!(byte("aes-256-gcm", "0.8.4", zen3.0, zen3.1), GCM_AVX_BYTE);
        // A CPU without AVX (an Atom, recorded as SSE2) keeps the per-block path.
        assert_eq!(byte("aes-256-gcm", "2.2", Simd::Sse2, 2017), PER_BLOCK_BYTE);
        // No AES-NI: integer AES, no state to save.
        assert_eq!(byte("on", "2.2", Simd::Sse2, 2008), TABLE_GCM_BYTE);
        assert_eq!(byte("aes-256-ccm", "2.2", Simd::Sse2, 2008), TABLE_CCM_BYTE);
    }

    /// Pajkastare's NVMe pool (Ryzen 7, Zen 3, Ubuntu 22.04's OpenZFS 2.1): with encryption
    /// the CPU is the limit, and CCM, whatever the writers, tops at 282-383.8 MiB/s (its
    /// sub-tests 2 and 3 of records of 4K-1M that write whole records), where GCM reaches
    /// 636-2,788 MiB/s, within reach of the pool without encryption. The CCM/GCM cost ratio
    /// must make CCM at least 5 times as dear as the fastest GCM figure over the slowest CCM
    /// one implies (2,121 / 383.8 = 5.5: GCM's other costs are not zero), and at most what the
    /// PR measured between its paths.
    #[test]
    fn ccm_against_gcm_as_pajkastare_measured() {
        let (simd, year) = (Simd::Avx2, 2020);
        let ratio = byte("aes-256-ccm", "2.1", simd, year) / byte("aes-256-gcm", "2.1", simd, year);
        assert!((5.5..=30.0).contains(&ratio), "{ratio}");
        // The CCM ceiling on 8 Zen 3 cores at 3.8 GHz (generation factor 0.75), from its
        // cipher alone, lies within 60% above the measured 282-383.8 MiB/s.
        let ceiling = 8.0 * 3.8e9 / (PER_BLOCK_BYTE * crate::cpu::generation_factor(year));
        let mib = ceiling / f64::from(1 << 20);
        assert!((383.8..=1.6 * 383.8).contains(&mib), "{mib}");
    }
}
