//! `zpoolsim serve`: one page and a JSON API over the engines, on this machine. The API takes
//! a JSON object whose keys are a command's flags and answers exactly what that command's
//! `--json` prints, through the same request types (crates/request); the page is plain HTML,
//! CSS and JavaScript compiled into the binary, and asks nothing of any other machine.

mod fleet;
mod gate;
mod heavy;
mod limits;
mod posted;
mod routes;
mod server;

pub use fleet::Fleet;
pub use routes::post;
pub use server::{ServeError, Server};
