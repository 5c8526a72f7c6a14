//! A web request's named inputs: a system file comes as its text, a workload as its name and
//! parameters. Nothing is read from disk, a system file's disks count against the cap, and the
//! engines stop when the server raises the request's flag.

use crate::limits::MAX_DISKS;
use model::cancel::Cancel;
use model::{Catalog, System, Workload};
use request::{Error, Inputs};

pub(crate) struct Posted {
    pub catalog: &'static Catalog,
    /// Raised when nobody waits for the answer any more.
    pub cancel: Cancel,
}

impl Inputs for Posted {
    fn catalog(&self) -> &Catalog {
        self.catalog
    }

    fn cancel(&self) -> Cancel {
        self.cancel.clone()
    }

    fn system(&self, text: &str) -> Result<System, Error> {
        let system = model::system_file::parse(text, "system", self.catalog)?;
        if system.disks.len() > MAX_DISKS as usize {
            return Err(Error(format!(
                "system: {} disks; the web page plans at most {MAX_DISKS} (the command line takes more)",
                system.disks.len()
            )));
        }
        Ok(system)
    }

    fn phases(&self, spec: &str) -> Result<Vec<Workload>, Error> {
        if spec.ends_with(".toml") {
            return Err(Error(format!(
                "workload '{}': the web page reads no files; give NAME[:key=value,...]",
                model::input::echo(spec)
            )));
        }
        Ok(model::workload::parse_phases(spec)?)
    }
}
