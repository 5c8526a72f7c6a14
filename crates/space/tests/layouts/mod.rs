//! Every homogeneous layout on up to `max_disks` disks: `Kx TYPE-W` for every type, width and
//! count with K x W <= max_disks. dRAID: every parity, data width and child count, with 0 to 3
//! distributed spares. Shared by the all-layouts test and the benchmark.

use model::{Layout, Leaf, Pool, VdevGroup, VdevType};

pub(crate) fn homogeneous_layouts(max_disks: u32) -> Vec<Layout> {
    let mut out = Vec::new();
    let one = |count, vtype, children| Layout {
        groups: vec![VdevGroup {
            count,
            vtype,
            children,
        }],
    };
    for n in 1..=max_disks {
        out.push(one(n, VdevType::Disk, 1));
    }
    for w in 2..=max_disks {
        for k in 1..=max_disks / w {
            out.push(one(k, VdevType::Mirror, w));
        }
    }
    for parity in 1..=3 {
        for w in parity + 1..=max_disks {
            for k in 1..=max_disks / w {
                out.push(one(k, VdevType::Raidz { parity }, w));
            }
        }
    }
    for parity in 1..=3 {
        for spares in 0..=3 {
            for c in parity + spares + 1..=max_disks {
                for data in 1..=c - parity - spares {
                    for k in 1..=max_disks / c {
                        out.push(one(
                            k,
                            VdevType::Draid {
                                parity,
                                data,
                                spares,
                            },
                            c,
                        ));
                    }
                }
            }
        }
    }
    out
}

/// Pools of every homogeneous layout on whole disks of `disk_bytes`, at `ashift`.
pub(crate) fn pools(max_disks: u32, disk_bytes: u64, ashift: u8) -> Vec<Pool> {
    let leaf = Leaf {
        capacity_bytes: disk_bytes,
        logical_sector: 512,
        whole_disk: true,
    };
    homogeneous_layouts(max_disks)
        .into_iter()
        .map(|l| Pool::simple(l, leaf, ashift))
        .collect()
}
