//! A leaf vdev's usable size (module/zfs/vdev.c vdev_open, include/sys/vdev_impl.h): the
//! partition zpool makes on a Linux whole disk, the 256 KiB alignment, the four labels and the
//! boot area, the 64 MiB minimum.

use crate::release::{GptRule, Profile, WholeDisk};
use crate::SpaceError;
use model::Leaf;
use serde::Serialize;

/// How one leaf's raw capacity becomes its allocatable size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LeafSpace {
    /// The device or file as bought or created.
    pub capacity_bytes: u64,
    /// What ZFS opens: partition 1 of a whole disk on Linux, else the device or file itself.
    pub device_bytes: u64,
    /// capacity - device: the GPT, the 1 MiB start, partition 9 and the end alignment.
    pub partition_loss: u64,
    /// osize: the device rounded down to a multiple of 256 KiB (sizeof vdev_label_t).
    pub osize: u64,
    /// device - osize: what the 256 KiB rounding drops.
    pub align_loss: u64,
    /// The front reserve (2 labels + boot area) and the end reserve (2 labels).
    pub label_bytes: u64,
    /// asize = osize - label reserves: what the leaf gives its top-level vdev.
    pub asize: u64,
}

/// Bytes of the data partition zpool creates on a whole disk of `capacity` bytes with
/// `sector`-byte logical sectors (docs/zfs-internals.md §1; zpool_label_disk, efi_alloc_and_init):
/// last usable LBA = sectors - 1 - (entry sectors + 1); the partition starts at 2048/coeff and
/// is (last usable + 1) - 16384/coeff - 2048/coeff sectors long, rounded down to a multiple
/// of 2048 sectors (coeff = sector / 512). `None` when the disk is too small to hold it.
pub(crate) fn gpt_data_partition(capacity: u64, sector: u32, rule: &GptRule) -> Option<u64> {
    let sector = u64::from(sector);
    let coeff = sector / 512;
    let sectors = capacity / sector;
    // The partition array (entries x 128 bytes, at least 16 KiB: EFI_MIN_ARRAY_SIZE) plus the
    // backup GPT header sit at the end of the disk.
    let array_bytes = (rule.entries * 128).max(16 * 1024);
    let nblocks = array_bytes.div_ceil(sector) + 1;
    let last_usable = sectors.checked_sub(1 + nblocks)?;
    let length = (last_usable + 1)
        .checked_sub(rule.reserved_512 / coeff)?
        .checked_sub(rule.start_512 / coeff)?;
    let length = length / rule.end_align_sectors * rule.end_align_sectors;
    if length == 0 {
        return None;
    }
    Some(length * sector)
}

/// The usable size of one leaf under `profile`.
pub fn leaf_space(leaf: &Leaf, profile: &Profile) -> Result<LeafSpace, SpaceError> {
    let sector = leaf.logical_sector;
    if !(512..=65536).contains(&sector) || !sector.is_power_of_two() {
        return Err(SpaceError::BadSector(sector));
    }
    let rule = &profile.label;
    let too_small = || SpaceError::DeviceTooSmall {
        bytes: leaf.capacity_bytes,
        min: rule.min_device,
    };
    let device_bytes = if leaf.whole_disk {
        match profile.whole_disk {
            WholeDisk::Gpt(gpt) => {
                gpt_data_partition(leaf.capacity_bytes, sector, &gpt).ok_or_else(too_small)?
            }
            WholeDisk::Raw => leaf.capacity_bytes,
            WholeDisk::Custom(f) => f(leaf.capacity_bytes, sector),
        }
    } else {
        leaf.capacity_bytes
    };
    let osize = device_bytes / rule.align * rule.align;
    if osize < rule.min_device {
        return Err(too_small());
    }
    let label_bytes = rule.start + rule.end;
    Ok(LeafSpace {
        capacity_bytes: leaf.capacity_bytes,
        device_bytes,
        partition_loss: leaf.capacity_bytes - device_bytes.min(leaf.capacity_bytes),
        osize,
        align_loss: device_bytes - osize,
        label_bytes,
        asize: osize - label_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release::LINUX_GPT;
    use model::units::{GIB, MIB};

    fn file(bytes: u64) -> Leaf {
        Leaf {
            capacity_bytes: bytes,
            logical_sector: 512,
            whole_disk: false,
        }
    }

    #[test]
    fn file_vdev_1000_gib() {
        // 1000 GiB = 1,073,741,824,000 B, already a multiple of 256 KiB.
        // asize = 1,073,741,824,000 - 4,718,592 (4 MiB + 512 KiB) = 1,073,737,105,408.
        let s = leaf_space(&file(1000 * GIB), &Profile::modern()).unwrap();
        assert_eq!(s.osize, 1_073_741_824_000);
        assert_eq!(s.asize, 1_073_737_105_408);
        assert_eq!(s.partition_loss, 0);
    }

    #[test]
    fn alignment_to_256_kib() {
        // 100 MiB + 300,000 B: 300,000 = 262,144 + 37,856, so osize = 100 MiB + 256 KiB.
        let s = leaf_space(&file(100 * MIB + 300_000), &Profile::modern()).unwrap();
        assert_eq!(s.osize, 105_119_744);
        assert_eq!(s.align_loss, 37_856);
        assert_eq!(s.asize, 105_119_744 - 4_718_592);
    }

    #[test]
    fn minimum_device_is_64_mib_after_alignment() {
        let p = Profile::modern();
        assert_eq!(leaf_space(&file(64 * MIB), &p).unwrap().asize, 62_390_272);
        // 64 MiB - 1 B aligns down to 63.75 MiB: too small.
        assert!(matches!(
            leaf_space(&file(64 * MIB - 1), &p),
            Err(SpaceError::DeviceTooSmall { .. })
        ));
    }

    #[test]
    fn gpt_512_byte_sectors() {
        // 750 GB = 1,464,843,750 sectors of 512 B. Last usable LBA = N - 34 = 1,464,843,716.
        // Length = 1,464,843,717 - 16,384 - 2,048 = 1,464,825,285 -> floor to 2048:
        // 715,246 x 2048 = 1,464,823,808 sectors = 749,989,789,696 B.
        assert_eq!(
            gpt_data_partition(750_000_000_000, 512, &LINUX_GPT),
            Some(749_989_789_696)
        );
    }

    #[test]
    fn gpt_4096_byte_sectors() {
        // 4 TB 4Kn = 976,562,500 sectors of 4 KiB. Last usable = N - 6 = 976,562,494.
        // Length = 976,562,495 - 2,048 - 256 = 976,560,191 -> floor to 2048:
        // 476,836 x 2048 = 976,560,128 sectors = 3,999,990,284,288 B.
        assert_eq!(
            gpt_data_partition(4_000_000_000_000, 4096, &LINUX_GPT),
            Some(3_999_990_284_288)
        );
    }

    #[test]
    fn whole_disk_is_partitioned_only_when_asked() {
        let p = Profile::modern();
        let disk = Leaf {
            capacity_bytes: 750_000_000_000,
            logical_sector: 512,
            whole_disk: true,
        };
        let s = leaf_space(&disk, &p).unwrap();
        assert_eq!(s.device_bytes, 749_989_789_696);
        assert_eq!(s.partition_loss, 10_210_304);
        assert_eq!(s.align_loss, 0); // a multiple of 1 MiB already
        assert_eq!(s.asize, 749_989_789_696 - 4_718_592);
        let raw = leaf_space(&disk, &Profile::legacy()).unwrap();
        assert_eq!(raw.device_bytes, 750_000_000_000);
    }

    #[test]
    fn refuses_odd_sectors() {
        let leaf = Leaf {
            capacity_bytes: GIB,
            logical_sector: 520,
            whole_disk: true,
        };
        assert!(matches!(
            leaf_space(&leaf, &Profile::modern()),
            Err(SpaceError::BadSector(520))
        ));
    }
}
