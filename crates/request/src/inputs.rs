//! Where a request's named inputs come from: the command line reads the files a user names;
//! the web takes a system file's text in the request and reads nothing.

use crate::Error;
use model::cancel::Cancel;
use model::{Catalog, System, Workload};

/// Where a request's named inputs (system files, workloads) come from.
pub trait Inputs {
    /// The catalog system files and disk ids are resolved against.
    fn catalog(&self) -> &Catalog;
    /// The system file a request gives as `system`: a path on the command line, the file's text
    /// in a web request.
    fn system(&self, given: &str) -> Result<System, Error>;
    /// Every phase a workload names: `NAME[:key=value,...]` or a benchmark's command line
    /// (several timed phases unless `@PHASE` picks one), or a workload file where files may be
    /// read.
    fn phases(&self, spec: &str) -> Result<Vec<Workload>, Error>;

    /// When to stop the engines' long loops: the web raises it when nobody waits for the
    /// answer any more; the command line never does.
    fn cancel(&self) -> Cancel {
        Cancel::never()
    }

    /// A workload of one phase.
    fn workload(&self, spec: &str) -> Result<Workload, Error> {
        Ok(model::workload::one_phase(self.phases(spec)?)?)
    }
}

/// The system file if one is given, else the embedded default system.
pub fn system_or_default(inputs: &dyn Inputs, given: Option<&str>) -> Result<System, Error> {
    match given {
        Some(g) => inputs.system(g),
        None => Ok(model::system_file::default_system()),
    }
}
