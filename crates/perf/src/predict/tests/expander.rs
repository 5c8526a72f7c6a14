//! SAS expanders: every disk behind one shares its wide link to the controller.

use super::predict;
use crate::testkit::{fast_link, system};
use model::hardware::{ControllerKind, Interface};
use model::system::{Attach, Controller, Upstream};
use model::Workload;

/// `n` disks of 200 MB/s behind an expander of `lanes` 6 Gb/s SAS lanes, cabled to the HBA.
fn behind_an_expander(layout: &str, n: usize, lanes: u32) -> model::System {
    let mut s = system(layout, n, 200.0, fast_link());
    let mut model = s.controllers[0].model.clone();
    model.kind = ControllerKind::Expander;
    model.interface = Interface::Sas;
    model.uplink_lanes = Some(lanes);
    s.controllers.push(Controller {
        id: "exp".into(),
        model,
        upstream: Upstream::Controller("hba".into()),
    });
    for d in &mut s.disks {
        d.attach = Attach::Controller("exp".into());
    }
    s
}

#[test]
fn disks_behind_an_expander_share_its_wide_link() {
    // 24 disks could stream 4800 MB/s; the expander's 4 lanes of 6 Gb/s SAS (8b/10b:
    // 600 MB/s each) carry 2400 MB/s to the HBA.
    let s = behind_an_expander("stripe-24", 24, 4);
    let w = Workload::parse("iozone-read:t=8,size=10G,cache=cold").unwrap();
    let p = predict(&s, &w).unwrap();
    assert_eq!(p.bottleneck.kind.word(), "expander");
    assert!(
        (p.bottleneck.limit / 1e6 - 2400.0).abs() < 0.01,
        "{:?}",
        p.bottleneck
    );
    // Eight lanes: the disks are the limit again.
    let wide = predict(&behind_an_expander("stripe-24", 24, 8), &w).unwrap();
    assert_eq!(wide.bottleneck.kind.word(), "disk");
}
