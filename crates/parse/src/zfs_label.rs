//! The vdev label, read from a device's own bytes (OpenZFS vdev_impl.h `vdev_label_t`,
//! vdev_label.c `vdev_label_offset`): a device that ever held a pool keeps four 256 KiB labels,
//! two at its start and two at its end, whatever udev or blkid say of it. Each label holds the
//! pool's configuration as an XDR nvlist at 16 KiB and a ring of uberblocks from 128 KiB,
//! one per slot of at least 1 KiB, each starting with the magic 0x00bab10c in the byte order
//! of the machine that wrote it.

/// Bytes of one label (`sizeof (vdev_label_t)`).
pub const LABEL_BYTES: u64 = 256 << 10;

/// The uberblock's magic (`UBERBLOCK_MAGIC`): "oo-ba-bloc!".
const UBERBLOCK_MAGIC: u64 = 0x00ba_b10c;
/// Where the pool's configuration (`vl_vdev_phys`) starts in a label.
const NVLIST_AT: usize = 16 << 10;
/// Where the uberblock ring (`vl_uberblock`) starts in a label, and its length.
const RING_AT: usize = 128 << 10;
const RING_BYTES: usize = 128 << 10;
/// The smallest uberblock slot (`1 << UBERBLOCK_SHIFT`): larger slots (1 << ashift) start at
/// multiples of it too.
const SLOT_BYTES: usize = 1 << 10;

/// Where the labels are on a device of `size` bytes: 0 and 256 KiB, and the last two 256 KiB
/// of the size rounded down to 256 KiB; only those that fit on a device too small for four.
pub fn offsets(size: u64) -> Vec<u64> {
    let aligned = size / LABEL_BYTES * LABEL_BYTES;
    let all = [
        0,
        LABEL_BYTES,
        aligned.saturating_sub(2 * LABEL_BYTES),
        aligned.saturating_sub(LABEL_BYTES),
    ];
    let mut fit: Vec<u64> = all
        .into_iter()
        .filter(|o| o + LABEL_BYTES <= aligned)
        .collect();
    fit.dedup();
    fit
}

/// Whether one label's bytes (as many as were read, up to 256 KiB) are a ZFS label: an
/// uberblock magic at the start of a slot of the ring, or the configuration's XDR nvlist.
pub fn is_label(label: &[u8]) -> bool {
    uberblock_in_ring(label) || config_nvlist(label)
}

fn uberblock_in_ring(label: &[u8]) -> bool {
    let ring = label.get(RING_AT..).unwrap_or_default();
    ring[..ring.len().min(RING_BYTES)]
        .chunks(SLOT_BYTES)
        .filter_map(|slot| slot.get(..8)?.try_into().ok())
        .any(|magic: [u8; 8]| {
            u64::from_le_bytes(magic) == UBERBLOCK_MAGIC
                || u64::from_be_bytes(magic) == UBERBLOCK_MAGIC
        })
}

/// The XDR-encoded nvlist a label's configuration is (nvpair.c `nvs_xdr`): the header (encoding
/// 1 = XDR, the writer's byte order, two zero bytes), version 0, flags NV_UNIQUE_NAME, then the
/// first pair, which spa_config_generate makes `version`.
fn config_nvlist(label: &[u8]) -> bool {
    let Some(nv) = label.get(NVLIST_AT..NVLIST_AT + 32) else {
        return false;
    };
    nv[0] == 1
        && nv[1] <= 1
        && nv[2..4] == [0, 0]
        && nv[4..12] == [0, 0, 0, 0, 0, 0, 0, 1]
        && nv[20..24] == [0, 0, 0, 7]
        && &nv[24..31] == b"version"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_labels_two_at_each_end() {
        let m = LABEL_BYTES;
        // 64 MiB + 100 KiB: the end labels sit below the size rounded down to 256 KiB.
        assert_eq!(
            offsets((64 << 20) + (100 << 10)),
            [0, m, (64 << 20) - 2 * m, (64 << 20) - m]
        );
        assert_eq!(offsets(3 * m), [0, m, 2 * m]);
        assert_eq!(offsets(m - 1), Vec::<u64>::new());
    }

    #[test]
    fn a_label_is_known_by_its_uberblock_or_its_nvlist() {
        let empty = vec![0u8; LABEL_BYTES as usize];
        assert!(!is_label(&empty));
        // Little-endian, 4 KiB slots (ashift 12), as zfs-fuse wrote one: the third slot.
        let mut le = empty.clone();
        le[RING_AT + 8192..RING_AT + 8200].copy_from_slice(&UBERBLOCK_MAGIC.to_le_bytes());
        assert!(is_label(&le));
        // Big-endian (a SPARC's pool) in the last 1 KiB slot.
        let mut be = empty.clone();
        let last = RING_AT + RING_BYTES - SLOT_BYTES;
        be[last..last + 8].copy_from_slice(&UBERBLOCK_MAGIC.to_be_bytes());
        assert!(is_label(&be));
        // The magic off a slot's start, or outside the ring, is not an uberblock.
        let mut off = empty.clone();
        off[RING_AT + 8..RING_AT + 16].copy_from_slice(&UBERBLOCK_MAGIC.to_le_bytes());
        off[1024..1032].copy_from_slice(&UBERBLOCK_MAGIC.to_le_bytes());
        assert!(!is_label(&off));
        // The configuration's first bytes as zfs-fuse wrote them.
        let mut nv = empty.clone();
        let head = b"\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x24\x00\x00\x00\x20\x00\x00\x00\x07version\x00";
        nv[NVLIST_AT..NVLIST_AT + head.len()].copy_from_slice(head);
        assert!(is_label(&nv));
        nv[NVLIST_AT + 24] = b'V';
        assert!(!is_label(&nv));
        assert!(!is_label(&le[..RING_AT]), "a short read holds no ring");
    }
}
