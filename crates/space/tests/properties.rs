//! Properties that hold for every pool (proptest).

use model::{Layout, Leaf, Pool, VdevGroup, VdevType};
use proptest::prelude::*;
use zpoolsim_space::{block_asize, pool_capacity, pool_space, Profile};

fn raidz() -> impl Strategy<Value = (u32, u32)> {
    (1u32..=3).prop_flat_map(|p| (Just(p), p + 1..=24))
}

fn group(vtype: VdevType, children: u32) -> VdevGroup {
    VdevGroup {
        count: 1,
        vtype,
        children,
    }
}

/// Any homogeneous layout of up to 60 disks.
fn layout() -> impl Strategy<Value = VdevGroup> {
    prop_oneof![
        (1u32..=60).prop_map(|n| VdevGroup {
            count: n,
            vtype: VdevType::Disk,
            children: 1
        }),
        (2u32..=4, 1u32..=20).prop_map(|(w, k)| VdevGroup {
            count: k,
            vtype: VdevType::Mirror,
            children: w
        }),
        (raidz(), 1u32..=4).prop_map(|((p, w), k)| VdevGroup {
            count: k,
            vtype: VdevType::Raidz { parity: p },
            children: w
        }),
        (1u32..=3, 0u32..=3, 1u32..=16, 0u32..=20).prop_map(|(p, s, d, extra)| {
            let c = (d + p + s + extra).min(255);
            VdevGroup {
                count: 1,
                vtype: VdevType::Draid {
                    parity: p,
                    data: d,
                    spares: s,
                },
                children: c,
            }
        }),
    ]
}

fn pool(g: VdevGroup, disk: u64, ashift: u8, whole: bool) -> Pool {
    let leaf = Leaf {
        capacity_bytes: disk,
        logical_sector: 512,
        whole_disk: whole,
    };
    Pool::simple(Layout { groups: vec![g] }, leaf, ashift)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A raidz block never stores data better than (w - p) / w, and its asize is a whole
    /// number of (p + 1)-sector units.
    #[test]
    fn raidz_efficiency_and_padding((p, w) in raidz(), ashift in 9u8..=16, psize in 1u64..=(16 << 20)) {
        let g = group(VdevType::Raidz { parity: p }, w);
        let asize = block_asize(&g, ashift, psize);
        prop_assert!(psize as f64 / asize as f64 <= f64::from(w - p) / f64::from(w) + 1e-12);
        prop_assert_eq!(asize % (u64::from(p + 1) << ashift), 0);
        prop_assert!(asize >= psize);
    }

    /// Likewise d / (d + p) for dRAID, in whole rows.
    #[test]
    fn draid_efficiency(p in 1u32..=3, d in 1u32..=32, ashift in 9u8..=16, psize in 1u64..=(16 << 20)) {
        let g = group(VdevType::Draid { parity: p, data: d, spares: 0 }, d + p);
        let asize = block_asize(&g, ashift, psize);
        prop_assert!(psize as f64 / asize as f64 <= f64::from(d) / f64::from(d + p) + 1e-12);
        prop_assert_eq!(asize % (u64::from(d + p) << ashift), 0);
    }

    /// AVAIL never above SIZE, and the breakdown always adds up.
    #[test]
    fn avail_below_size(g in layout(), disk in (64u64 << 20)..=24_000_000_000_000u64, ashift in 9u8..=13, whole in any::<bool>()) {
        if let Ok(r) = pool_space(&pool(g, disk, ashift, whole), &Profile::modern()) {
            prop_assert!(r.avail_bytes <= r.size_bytes);
            prop_assert!(r.size_bytes <= r.raw_bytes);
            prop_assert!(r.dspace_bytes <= r.size_bytes);
            let mut running: i128 = 0;
            for l in &r.breakdown {
                match l.op {
                    zpoolsim_space::Op::Start => running = l.bytes as i128,
                    zpoolsim_space::Op::Minus => running -= l.bytes as i128,
                    zpoolsim_space::Op::Total => prop_assert_eq!(running, l.bytes as i128),
                }
            }
        }
    }

    /// A larger disk never gives a smaller SIZE or AVAIL.
    #[test]
    fn monotone_in_disk_size(g in layout(), disk in (64u64 << 20)..=24_000_000_000_000u64, more in 0u64..=2_000_000_000_000u64, ashift in 9u8..=13, whole in any::<bool>(), legacy in any::<bool>()) {
        let profile = if legacy { Profile::legacy() } else { Profile::modern() };
        if legacy && matches!(g.vtype, VdevType::Draid { .. }) {
            return Ok(());
        }
        let small = pool_capacity(&pool(g, disk, ashift, whole), &profile);
        let large = pool_capacity(&pool(g, disk + more, ashift, whole), &profile);
        if let Ok(s) = small {
            let l = large.expect("a larger disk is accepted too");
            prop_assert!(l.size_bytes >= s.size_bytes, "SIZE {} -> {}", s.size_bytes, l.size_bytes);
            prop_assert!(l.avail_bytes >= s.avail_bytes, "AVAIL {} -> {}", s.avail_bytes, l.avail_bytes);
        }
    }
}
