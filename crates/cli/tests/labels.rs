//! `calibrate` reads a disk's own bytes for a ZFS label, so a disk udev never probed (no
//! `zfs_member` in lsblk) is still refused: hand-made labels on a loop device, one in each
//! place a label may be. (The zfs-fuse measure test does the same with a real pool's label.)

mod common;

use common::scratch::{LoopDevice, Scratch};
use common::{run, skip};

const MIB: usize = 1 << 20;
const LABEL: usize = 256 << 10;

/// A 16 MiB image with `bytes` written at `at`, on a loop device: calibrate refuses it by the
/// label in one line, before fio reads a byte.
fn refused_by_its_label(dir: &Scratch, name: &str, at: usize, bytes: &[u8]) -> Result<(), String> {
    let image = dir.join(name);
    let mut data = vec![0u8; 16 * MIB];
    data[at..at + bytes.len()].copy_from_slice(bytes);
    std::fs::write(&image, &data).unwrap();
    let dev = LoopDevice::attach(&image)?;
    let (code, out, err) = run(&[
        "calibrate",
        "--raw",
        &dev.0,
        "--zones",
        "2",
        "--runtime",
        "1",
    ]);
    assert_eq!(code, 2, "{name}: {out}{err}");
    assert_eq!(
        err,
        format!(
            "zpoolsim: {0} carries a ZFS label ({0} holds one: a pool that is not imported, or destroyed)\n",
            dev.0
        ),
        "{name}"
    );
    assert_eq!(
        std::fs::read(&image).unwrap(),
        data,
        "{name}: nothing written"
    );
    Ok(())
}

#[test]
fn calibrate_refuses_a_disk_whose_bytes_hold_a_zfs_label() {
    let dir = Scratch::new("labels");
    let magic = 0x00ba_b10c_u64.to_le_bytes();
    // The configuration nvlist's first bytes, as zfs-fuse wrote them.
    let nvlist = b"\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x24\x00\x00\x00\x20\x00\x00\x00\x07version\x00";
    let end = 16 * MIB;
    let cases: [(&str, usize, &[u8]); 4] = [
        ("uberblock-l0.img", 128 << 10, &magic),
        ("nvlist-l1.img", LABEL + (16 << 10), nvlist),
        (
            "uberblock-l2.img",
            end - 2 * LABEL + (128 << 10) + 4096,
            &magic,
        ),
        (
            "uberblock-l3-be.img",
            end - LABEL + (255 << 10),
            &0x00ba_b10c_u64.to_be_bytes(),
        ),
    ];
    for (name, at, bytes) in cases {
        if let Err(why) = refused_by_its_label(&dir, name, at, bytes) {
            return skip("calibrate on hand-made ZFS labels", &why);
        }
    }
}
