//! What one read of the kernel's random device gives. Linux's urandom_read
//! (drivers/char/random.c; urandom_read_nowarn from 5.6) clamped every read to
//! INT_MAX >> (ENTROPY_SHIFT + 3) = 33,554,431 bytes, in the SHA-1 pool's driver and in the
//! ChaCha20 one of 4.8 on alike. The clamp came with commit 79a8468747c5 ("random: check for
//! increase of entropy_count because of signed conversion", 2013), which guarded the entropy
//! accounting's fixed-point arithmetic; "random: remove outdated INT_MAX >> 6 check in
//! urandom_read()" (Jason A. Donenfeld, LKML 2022-02-09; commit 434537ae54ad) took it out for
//! Linux 5.18, and the stable kernels of May and June 2022 (5.10's queue on 2022-05-27, 4.9 to
//! 5.17 by 2022-06-20) carried the removal with the rest of random.c.
//! A bigger read comes back short: dd without `iflag=fullblock` takes it as the block, and
//! with `conv=sync` pads the rest with zeros (POSIX dd), so a 64 MiB block of
//! `dd if=/dev/urandom bs=64M conv=sync` holds 32 MiB less one byte of the device's output.

use crate::release::Release;
use model::release::Platform;
use model::system::System;
use model::workload::{Data, Workload};
use std::borrow::Cow;

/// Bytes one read of /dev/urandom returns at most under the clamp: INT_MAX >> 6.
const CLAMP: u64 = (i32::MAX as u64) >> 6;

/// The largest read the random device serves at once on `release`'s kernel, or `None` where
/// no clamp applies. The kernel is taken from the release, as `cpu::urandom_byte` takes it:
/// ZFS on Linux 0.6 to OpenZFS 2.1 (2013-2023) ran on the kernels of those years, 3.x to
/// 5.15, all with the clamp but the oldest (RHEL 6's 2.6.32, which predates it); from
/// OpenZFS 2.2 (2023) a kernel of 5.18 on or a stable one updated after mid-2022, without
/// it. zfs-fuse ran before the clamp (2008-2012); FreeBSD's and illumos' random devices are
/// not this driver.
pub(crate) fn read_clamp(release: &Release) -> Option<u64> {
    let line = release.zfs.openzfs_line();
    (release.platform == Platform::Linux && ((0, 6)..(2, 2)).contains(&line)).then_some(CLAMP)
}

/// Bytes the random device gives one read of `block` bytes on `release`: the whole block, or
/// the clamp where the block is larger.
pub(crate) fn bytes_per_read(block: u64, release: &Release) -> u64 {
    read_clamp(release).map_or(block, |clamp| block.min(clamp))
}

/// `w` as the file receives it on `system`'s kernel (`written`): the workload every prediction
/// and latency run of a random device's writes starts from.
pub(crate) fn as_written<'a>(w: &'a Workload, system: &System) -> Cow<'a, Workload> {
    written(w, &Release::of(system.host.zfs, &system.host.tunables))
}

/// `w` as the file receives it on `release`'s kernel: without `conv=sync` dd writes what each
/// read gave it, so a block larger than the clamp goes out short, and `count` blocks carry
/// that much less.
fn written<'a>(w: &'a Workload, release: &Release) -> Cow<'a, Workload> {
    let short = bytes_per_read(w.block_size, release);
    if w.data != (Data::Urandom { padded: false }) || short == w.block_size {
        return Cow::Borrowed(w);
    }
    let mut written = w.clone();
    written.block_size = short;
    written.data_bytes = w.data_bytes.map(|bytes| bytes / w.block_size * short);
    Cow::Owned(written)
}

/// What compression finds in `w`'s records: with `conv=sync` a short block is the device's
/// bytes and then zeros, whose records become holes on a compressing dataset; taken, as a
/// sparse record's zeros are, as that share of each record.
pub(crate) fn stored_data(w: &Workload, release: &Release) -> Data {
    let short = bytes_per_read(w.block_size, release);
    match w.data {
        Data::Urandom { padded: true } if short < w.block_size => Data::Sparse {
            // At most 100: `short` is below the block.
            fill_pct: (100 * short).div_ceil(w.block_size) as u8,
        },
        data => data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    #[test]
    fn a_read_larger_than_the_clamp_comes_back_short() {
        const MIB: u64 = 1 << 20;
        // INT_MAX >> (ENTROPY_SHIFT + 3), ENTROPY_SHIFT being 3: 2^25 - 1.
        assert_eq!(CLAMP, 33_554_431);
        let zol = release("zol-0.7");
        assert_eq!(bytes_per_read(64 * MIB, &zol), 32 * MIB - 1);
        assert_eq!(bytes_per_read(16 * MIB, &zol), 16 * MIB);
        assert_eq!(
            bytes_per_read(64 * MIB, &release("zol-0.6.5")),
            32 * MIB - 1
        );
        assert_eq!(bytes_per_read(64 * MIB, &release("2.1")), 32 * MIB - 1);
        // Kernels of 5.18 on, under OpenZFS 2.2 and later: the whole read.
        assert_eq!(bytes_per_read(64 * MIB, &release("2.2")), 64 * MIB);
        assert_eq!(read_clamp(&release("freebsd-13.1")), None);
        assert_eq!(read_clamp(&release("zfs-fuse")), None);
    }

    fn dd(spec: &str) -> Workload {
        Workload::parse(spec).expect("a dd command line")
    }

    #[test]
    fn an_unpadded_block_is_written_short_and_a_padded_one_half_zeros() {
        const MIB: u64 = 1 << 20;
        let zol = release("zol-0.7");
        // microuser's 64 MiB blocks: with conv=sync the file gets 64 MiB a block, half of it
        // the device's bytes; without it 32 MiB less one byte a block.
        let padded = dd("dd if=/dev/urandom of=/p/f bs=67108864 count=8 conv=sync");
        assert_eq!(written(&padded, &zol).block_size, 64 * MIB);
        assert_eq!(stored_data(&padded, &zol), Data::Sparse { fill_pct: 50 });
        let short = dd("dd if=/dev/urandom of=/p/f bs=67108864 count=8");
        let cut = written(&short, &zol);
        assert_eq!(cut.block_size, 32 * MIB - 1);
        assert_eq!(cut.data_bytes, Some(8 * (32 * MIB - 1)));
        assert_eq!(stored_data(&short, &zol), Data::Urandom { padded: false });
        // No clamp from OpenZFS 2.2's kernels on, nor below it: the command as given.
        let modern = release("2.2");
        assert_eq!(written(&short, &modern).block_size, 64 * MIB);
        assert_eq!(
            stored_data(&padded, &modern),
            Data::Urandom { padded: true }
        );
        let small = dd("dd if=/dev/urandom of=/p/f bs=16M count=8 conv=sync");
        assert_eq!(stored_data(&small, &zol), Data::Urandom { padded: true });
    }
}
