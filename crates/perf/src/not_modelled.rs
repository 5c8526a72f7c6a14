//! What the model cannot see in a system and workload it is given: each becomes a sentence in
//! the prediction, so that a figure is never read as covering what it leaves out
//! (docs/performance-model.md, "What the model does not capture").

use crate::release::Release;
use model::hardware::{ControllerKind, Interface};
use model::system::Attach;
use model::{System, VdevClass, Workload};

/// Sentences naming each part of `system` or `w` the prediction leaves out.
pub fn not_modelled(system: &System, w: &Workload, release: &Release) -> Vec<String> {
    let mut out = Vec::new();
    if system
        .pool
        .vdevs
        .iter()
        .any(|t| t.class == VdevClass::Special)
    {
        out.push(
            "the special vdev's metadata: blocks up to special_small_blocks go to it, but the \
             metadata it would hold is counted on the normal vdevs"
                .into(),
        );
    }
    if system
        .pool
        .vdevs
        .iter()
        .any(|t| t.class == VdevClass::Dedup)
    {
        out.push("the dedup vdev: the dedup table it would hold is not modelled".into());
    }
    if system.pool.cache_devices > 0 {
        out.push(
            "the L2ARC's warm-up: random reads find it full of the data beyond the ARC (its \
             feed, 32 MiB a second per device by default, fills it in N x 32 s for N GiB); \
             `secondarycache` is taken as `all`"
                .into(),
        );
    }
    if system
        .links
        .iter()
        .any(|l| l.source.as_deref() == Some(model::system_file::IMPLIED))
    {
        out.push(
            "the disks' controllers and links, which the system file does not name: the \
             default system's stand in (a SAS 9300-8i on PCIe 3.0 x8 per 8 disks, PCIe 3.0 x4 \
             for each NVMe disk)"
                .into(),
        );
    }
    if system.links.iter().any(|l| {
        l.source
            .as_deref()
            .is_some_and(|s| s.starts_with(model::system_file::IMPLIED_ONBOARD))
    }) {
        out.push(
            "the onboard SATA chip, which the system file does not name: an Intel C246 PCH's \
             AHCI behind DMI 3.0 (PCIe 3.0 x4) stands in"
                .into(),
        );
    }
    if let Some(disk) = unprotected_flash_under_sync(system, w, release) {
        out.push(format!(
            "how long {disk} takes to flush its cache: its maker states no power-loss \
             protection, so each ZIL commit waits a default 1.5 ms (drives measured take \
             0.6-6 ms; with protection, none)"
        ));
    }
    if w.access == model::workload::Access::SeqRead && w.threads > 1 && all_flash(system) {
        out.push(
            "the ARC under several readers of a fast pool: its eviction of what they stream \
             through and their lock traffic; each reader copies at its core's rate"
                .into(),
        );
    }
    let unmeasured = crate::cpu::urandom_byte(release).is_none();
    if w.data == model::workload::Data::Urandom && w.access.writes() && unmeasured {
        out.push(
            "the kernel's random device on this platform: no measured rate, so generating the \
             data costs the writer nothing here"
                .into(),
        );
    }
    if sata_behind_expander(system) {
        out.push("SATA tunnelling (STP) through the SAS expander: its per-command overhead".into());
    }
    let volume = system
        .pool
        .datasets
        .first()
        .is_some_and(|d| d.volblocksize.is_some());
    if matches!(w.target, model::workload::Target::Zvol { .. }) || volume {
        out.push(
            "the zvol's own per-call path (a bio through the zvol taskq): a file's per-call \
             cost is taken"
                .into(),
        );
    }
    if w.network {
        out.push(
            "the file-sharing protocol (NFS, SMB, iSCSI): only the network's bandwidth is \
             counted"
                .into(),
        );
    }
    out
}

fn sata_behind_expander(system: &System) -> bool {
    system.disks.iter().any(|d| {
        d.model.interface == Interface::Sata
            && matches!(&d.attach, Attach::Controller(id) if system
                .controllers
                .iter()
                .any(|c| &c.id == id && c.model.kind == ControllerKind::Expander))
    })
}

/// A solid-state disk without stated power-loss protection, when `w` makes synchronous writes
/// (the ZIL's own rule, zil::sync_writes).
fn unprotected_flash_under_sync(
    system: &System,
    w: &Workload,
    release: &Release,
) -> Option<String> {
    let ds = system.pool.datasets.first()?;
    crate::zil::sync_writes(w, ds, release, false)?;
    system
        .disks
        .iter()
        .find(|d| {
            d.model.medium != model::hardware::Medium::Hdd
                && d.model.power_loss_protection != Some(true)
        })
        .map(|d| d.name.clone())
}

/// Whether every disk of the pool is solid state.
fn all_flash(system: &System) -> bool {
    system
        .disks
        .iter()
        .all(|d| d.model.medium != model::hardware::Medium::Hdd)
}
