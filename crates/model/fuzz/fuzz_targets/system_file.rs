//! System files: parsing never panics, and every error is one located line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use model::{system_file, Catalog};

fuzz_target!(|text: &str| {
    match system_file::parse(text, "fuzz.toml", Catalog::embedded()) {
        Ok(system) => assert!(!system.disks.is_empty()),
        Err(e) => {
            let line = e.to_string();
            assert!(!line.contains('\n'), "{line}");
            assert!(e.line >= 1 && e.column >= 1, "{line}");
            assert!(e.line <= text.lines().count().max(1) + 1, "{line}");
        }
    }
});
