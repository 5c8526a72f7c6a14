//! The one error of a request: a sentence for the person who asked (exit code 2 on the command
//! line, HTTP 400 on the web), and, as a [`Refusal`], the field of the request it is about, so
//! that a form can show it beside that field.

use std::fmt;

/// One sentence for the person who asked.
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Any engine or model error becomes its own message.
impl<E: std::error::Error> From<E> for Error {
    fn from(e: E) -> Self {
        Error(e.to_string())
    }
}

/// A request refused: why, and the field it is about when it is about one, named as the
/// request's key (`disks`, `disk`, `need`, `min_redundancy`, `workload`, `system`, ...).
#[derive(Debug)]
pub struct Refusal {
    /// The field the refusal is about, if one.
    pub field: Option<String>,
    /// Why.
    pub error: Error,
}

impl Error {
    /// This error, about the request's field `field`.
    pub fn about(self, field: &'static str) -> Refusal {
        self.about_field(field.to_string())
    }

    /// This error, about the field named `field`.
    pub fn about_field(self, field: String) -> Refusal {
        Refusal {
            field: Some(field),
            error: self,
        }
    }
}

/// Turns an error into a refusal about `field`: `.map_err(about("need"))`.
pub fn about<E: Into<Error>>(field: &'static str) -> impl FnOnce(E) -> Refusal {
    move |e| e.into().about(field)
}

/// An error about no field in particular.
impl From<Error> for Refusal {
    fn from(error: Error) -> Self {
        Refusal { field: None, error }
    }
}

/// Any engine or model error, about no field in particular.
impl<E: std::error::Error> From<E> for Refusal {
    fn from(e: E) -> Self {
        Error::from(e).into()
    }
}

/// The command line says only why.
impl From<Refusal> for Error {
    fn from(refusal: Refusal) -> Self {
        refusal.error
    }
}
