//! What each path answers: the page and its two files, the disk catalog, and the API, each
//! endpoint one request type of crates/request read from the JSON body, checked against the
//! limits and answered as the command line's `--json` prints it.

use crate::limits;
use crate::posted::Posted;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use model::Catalog;
use request::{
    from_json, to_json, CapacityRequest, Error, Inputs, PlanRequest, PredictRequest,
    ReliabilityRequest, SystemRequest,
};
use serde::Serialize;

const PAGE: &str = include_str!("../page/index.html");
const SCRIPT: &str = include_str!("../page/page.js");
const STYLE: &str = include_str!("../page/page.css");

/// The page may load only its own files and ask only its own server: nothing leaves the
/// machine even if a file of it were changed to try.
const CONTENT_POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'none'";

/// An answer: status, media type, body.
pub struct Reply {
    status: u16,
    media: &'static str,
    body: String,
}

impl Reply {
    fn ok(media: &'static str, body: impl Into<String>) -> Reply {
        Reply {
            status: 200,
            media,
            body: body.into(),
        }
    }

    /// A page, a file of it or JSON, answered 200.
    pub fn page(media: &'static str, body: impl Into<String>) -> Reply {
        Reply::ok(media, body)
    }

    /// `{"error": "..."}`: one sentence saying what is wrong.
    pub fn error(status: u16, message: &str) -> Reply {
        let body = serde_json::json!({ "error": message }).to_string() + "\n";
        Reply {
            status,
            media: "application/json",
            body,
        }
    }

    pub fn into_response(self) -> axum::response::Response {
        let headers = [
            (header::CONTENT_TYPE, self.media),
            (header::CONTENT_SECURITY_POLICY, CONTENT_POLICY),
            (header::CACHE_CONTROL, "no-store"),
        ];
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, headers, self.body).into_response()
    }
}

pub fn reply(method: &str, path: &str, body: &str, catalog: &'static Catalog) -> Reply {
    let inputs = Posted { catalog };
    match (method, path) {
        ("GET", "/") => Reply::ok("text/html; charset=utf-8", PAGE),
        ("GET", "/page.js") => Reply::ok("text/javascript; charset=utf-8", SCRIPT),
        ("GET", "/page.css") => Reply::ok("text/css; charset=utf-8", STYLE),
        ("GET", "/api/disks") => json(Ok(catalog.disks.values().collect::<Vec<_>>())),
        ("POST", "/api/plan") => json(answer(body, limits::plan, |r: PlanRequest| {
            r.answer(&inputs)
        })),
        ("POST", "/api/capacity") => json(answer(body, limits::capacity, |r: CapacityRequest| {
            r.answer(&inputs)
        })),
        ("POST", "/api/predict") => json(answer(body, limits::predict, |r: PredictRequest| {
            r.answer(&inputs)
        })),
        ("POST", "/api/reliability") => {
            json(answer(body, limits::reliability, |r: ReliabilityRequest| {
                r.answer(&inputs)
            }))
        }
        ("POST", "/api/system") => match answer(body, limits::system, |r: SystemRequest| {
            r.answer(&inputs as &dyn Inputs)
        }) {
            Ok(text) => Reply::ok("application/toml; charset=utf-8", text),
            Err(e) => Reply::error(400, &e.0),
        },
        (_, "/" | "/page.js" | "/page.css" | "/api/disks") => {
            Reply::error(405, &format!("{path} answers GET"))
        }
        (_, p) if p.starts_with("/api/") => Reply::error(
            404,
            &format!("{p}: the API is POST /api/plan, /api/capacity, /api/predict, /api/reliability and /api/system"),
        ),
        _ => Reply::error(404, &format!("{path}: no such page")),
    }
}

/// The request of type `R` in `body`, checked against its limits, answered.
fn answer<R, T>(
    body: &str,
    check: fn(&R) -> Result<(), Error>,
    answer: impl FnOnce(R) -> Result<T, Error>,
) -> Result<T, Error>
where
    R: clap::Args + clap::FromArgMatches,
{
    let request: R = from_json(body)?;
    check(&request)?;
    answer(request)
}

/// An answer as the command line's `--json` prints it, or the error as HTTP 400.
fn json<T: Serialize>(answer: Result<T, Error>) -> Reply {
    match answer.and_then(|a| to_json(&a)) {
        Ok(text) => Reply::ok("application/json", text),
        Err(e) => Reply::error(400, &e.0),
    }
}
