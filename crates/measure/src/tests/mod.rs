//! The crate's modules on captured outputs of real machines and fixed inputs: the parsers, the
//! system file `discover` writes, and the bench's jobs, store, comparison and calibration.

mod discover;
mod parsers;
mod runs;
