//! Every homogeneous layout on up to 60 disks computes (or is refused with a reason).

mod layouts;

use zpoolsim_space::{pool_space, Profile};

#[test]
fn every_homogeneous_layout_on_60_disks() {
    let profile = Profile::modern();
    let pools = layouts::pools(60, 4_000_000_000_000, 12);
    assert!(pools.len() > 20_000, "{}", pools.len());
    for p in &pools {
        match pool_space(p, &profile) {
            Ok(r) => assert!(
                r.avail_bytes > 0 && r.avail_bytes <= r.size_bytes,
                "{}",
                r.layout
            ),
            Err(e) => panic!("{}: {e}", p.vdevs[0].layout),
        }
    }
}
