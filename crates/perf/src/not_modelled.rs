//! What the model cannot see in a system and workload it is given, as typed facts: the front
//! ends say each in a sentence beside the figures, so that a figure is never read as covering
//! what it leaves out (docs/performance-model.md, "What the model does not capture").

use crate::findings::Findings;
use model::hardware::{ControllerKind, Interface, Medium};
use model::system::Attach;
use model::workload::{Access, Data, Target};
use model::{System, VdevClass, Workload};

/// One part of the system or workload the prediction leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotModelled {
    /// A special vdev: small blocks go to it, the metadata it would hold does not.
    SpecialVdev,
    /// A dedup vdev: the dedup table it would hold.
    DedupVdev,
    /// Cache devices: the L2ARC holds what its feed took while the run wrote the data set,
    /// `secondarycache` is taken as `all`.
    L2arcWarmup,
    /// Controllers and links the system file does not name: the default system's stand in.
    ImpliedLinks,
    /// `controller = "onboard"`: a PCH's AHCI stands in for the chip the file does not name.
    ImpliedOnboardSata,
    /// Synchronous writes on this solid-state disk without stated power-loss protection: each
    /// ZIL commit waits a default cache flush.
    CacheFlush {
        /// The disk's name.
        disk: String,
    },
    /// Several readers streaming from an all-flash pool: the ARC's locks, and its eviction
    /// thread's clock.
    ArcUnderReaders,
    /// Writes of data from the kernel's random device on a platform without a measured rate.
    RandomDevice,
    /// SATA disks behind a SAS expander: STP's per-command overhead.
    StpThroughExpander,
    /// A zvol: its own per-call path, a file's taken instead.
    ZvolPath,
    /// Clients across the network: the file-sharing protocol, only the bandwidth counted.
    SharingProtocol,
    /// A pool partly full before the run (`fill=`): its data is placed on the outer tracks
    /// and the run's past it, but how fragmented its free space is (the allocator's searches,
    /// gang blocks, short free segments) is not seen.
    PoolFill,
    /// A sequential mix (fio rw=rw): its two streams taken as apart, so the reads of records
    /// the writer has just written (which the ARC holds) are counted as the file's, and a
    /// raw hard disk's seeks between the two positions are left out.
    MixedStreams,
}

/// Each part of `system` or `w` the prediction leaves out, from what the stages found before
/// the solve (`findings`), in the order the front ends list them.
pub(crate) fn not_modelled(system: &System, w: &Workload, findings: &Findings) -> Vec<NotModelled> {
    let has_class = |class| system.pool.vdevs.iter().any(|t| t.class == class);
    let implied = |prefix: &str| {
        system
            .links
            .iter()
            .any(|l| l.source.as_deref().is_some_and(|s| s.starts_with(prefix)))
    };
    let implied_links = system
        .links
        .iter()
        .any(|l| l.source.as_deref() == Some(model::system_file::IMPLIED));
    let volume = system
        .pool
        .datasets
        .first()
        .is_some_and(|d| d.volblocksize.is_some());
    let unprotected = findings
        .sync_writes
        .then(|| unprotected_flash(system))
        .flatten();
    [
        has_class(VdevClass::Special).then_some(NotModelled::SpecialVdev),
        has_class(VdevClass::Dedup).then_some(NotModelled::DedupVdev),
        (system.pool.cache_devices > 0).then_some(NotModelled::L2arcWarmup),
        implied_links.then_some(NotModelled::ImpliedLinks),
        implied(model::system_file::IMPLIED_ONBOARD).then_some(NotModelled::ImpliedOnboardSata),
        unprotected.map(|disk| NotModelled::CacheFlush { disk }),
        (w.access == Access::SeqRead && w.threads > 1 && all_flash(system))
            .then_some(NotModelled::ArcUnderReaders),
        (matches!(w.data, Data::Urandom { .. })
            && w.access.writes()
            && !findings.random_device_measured)
            .then_some(NotModelled::RandomDevice),
        sata_behind_expander(system).then_some(NotModelled::StpThroughExpander),
        (matches!(w.target, Target::Zvol { .. }) || volume).then_some(NotModelled::ZvolPath),
        w.network.then_some(NotModelled::SharingProtocol),
        (w.pool_fill > 0.0).then_some(NotModelled::PoolFill),
        matches!(w.access, Access::SeqMix { read_pct } if read_pct > 0 && read_pct < 100)
            .then_some(NotModelled::MixedStreams),
    ]
    .into_iter()
    .flatten()
    .collect()
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

/// The first solid-state disk whose flush is not free (no power-loss protection stated, a
/// volatile cache not ruled out): under synchronous writes
/// (the ZIL's own rule, zil::sync_writes) each commit waits for it to flush its cache.
fn unprotected_flash(system: &System) -> Option<String> {
    system
        .disks
        .iter()
        .find(|d| d.model.medium != Medium::Hdd && !d.model.flush_is_free())
        .map(|d| d.name.clone())
}

/// Whether every disk of the pool is solid state.
fn all_flash(system: &System) -> bool {
    system.disks.iter().all(|d| d.model.medium != Medium::Hdd)
}
