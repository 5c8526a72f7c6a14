//! The one error type of the front end: a request's sentence for the user, exit code 2.

pub use request::Error as CliError;

pub type CliResult = Result<(), CliError>;
