//! What the stages found before the solve that the figures and what the prediction leaves
//! out speak of: asked once, before the network is solved, so that nothing after it climbs
//! back to a stage (predict/mod.rs gathers them).

/// What the stages found before the solve that the figures speak of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Findings {
    /// The data are zeros on a compressing dataset: every record became a hole
    /// (zio_write_compress), so no data reached the disks.
    pub holes: bool,
    /// Some writes are synchronous: the ZIL commits them (zil_commit).
    pub sync_writes: bool,
    /// The kernel's random device has a measured rate on this platform.
    pub random_device_measured: bool,
}
