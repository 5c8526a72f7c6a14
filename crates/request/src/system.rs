//! The system file of a planned layout: the machine a plan ran on with the layout chosen as
//! its pool, to save, share, or ask capacity, predict and reliability about.

use crate::plan::DiskFlags;
use crate::{about, Inputs, Refusal};
use model::Layout;

/// `/api/system`: a planned layout as a system file.
#[derive(clap::Args, Debug)]
pub struct SystemRequest {
    /// The disks the layout goes on.
    #[command(flatten)]
    pub disks: DiskFlags,
    /// The layout chosen, as zpool create builds it; disks it leaves over become hot spares.
    #[arg(long, allow_hyphen_values = true)]
    pub layout: String,
}

impl SystemRequest {
    /// The system file's text.
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<String, Refusal> {
        let layout: Layout = self.layout.parse().map_err(about("layout"))?;
        let disks = self.disks.disks(inputs)?;
        let system = ::plan::assemble_with(&disks, &layout, inputs.catalog())
            .map_err(crate::plan::refused)?;
        Ok(model::system_file::write(&system, inputs.catalog()))
    }
}
