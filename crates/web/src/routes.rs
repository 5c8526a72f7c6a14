//! What each path answers: the page and its two files, the disk catalog, and the API, each
//! endpoint one request type of crates/request read from the JSON body, checked against the
//! limits and answered as the command line's `--json` prints it.

use crate::limits;
use crate::posted::Posted;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use model::cancel::Cancel;
use model::Catalog;
use request::{
    from_json, in_fields, to_json, CapacityRequest, Inputs, PlanRequest, PredictRequest, Refusal,
    ReliabilityRequest, SystemRequest,
};
use serde::Serialize;

const PAGE: &str = include_str!("../page/index.html");
const SCRIPT: &str = include_str!("../page/page.js");
const STYLE: &str = include_str!("../page/page.css");

/// The page may load only its own files and ask only its own server, and no other page may
/// frame it: nothing leaves the machine even if a file of it were changed to try, and no other
/// site can dress it up to click through.
const CONTENT_POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// An answer: status, media type, body, and for a 503 when to ask again.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) media: &'static str,
    pub(crate) body: String,
    retry_after: Option<u64>,
}

impl Reply {
    fn ok(media: &'static str, body: impl Into<String>) -> Reply {
        Reply {
            status: 200,
            media,
            body: body.into(),
            retry_after: None,
        }
    }

    /// A page, a file of it or JSON, answered 200.
    pub(crate) fn page(media: &'static str, body: impl Into<String>) -> Reply {
        Reply::ok(media, body)
    }

    /// `{"error": "..."}`: one sentence saying what is wrong.
    pub(crate) fn error(status: u16, message: &str) -> Reply {
        Reply::json_error(status, serde_json::json!({ "error": message }))
    }

    /// 400 Bad Request: `{"error": "...", "field": "..."}`, the sentence and the request's
    /// field it is about (`"field"` left out when it is about none in particular).
    pub(crate) fn refusal(refusal: &Refusal) -> Reply {
        let mut error = serde_json::json!({ "error": refusal.error.0 });
        if let Some(field) = &refusal.field {
            error["field"] = field.as_str().into();
        }
        Reply::json_error(400, error)
    }

    fn json_error(status: u16, error: serde_json::Value) -> Reply {
        let body = error.to_string() + "\n";
        Reply {
            status,
            media: "application/json",
            body,
            retry_after: None,
        }
    }

    /// This reply with another status: a page that says why what was asked is not here.
    pub(crate) fn with_status(self, status: u16) -> Reply {
        Reply { status, ..self }
    }

    /// This reply, asking the client to wait `seconds` before asking again.
    pub(crate) fn retry_after(self, seconds: u64) -> Reply {
        Reply {
            retry_after: Some(seconds),
            ..self
        }
    }

    /// The response, with the headers every answer carries: its media type, never sniffed,
    /// never cached, never framed, and no Referer sent from the page.
    pub(crate) fn into_response(self) -> axum::response::Response {
        let headers = [
            (header::CONTENT_TYPE, self.media),
            (header::CONTENT_SECURITY_POLICY, CONTENT_POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::CACHE_CONTROL, "no-store"),
        ];
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let retry = self
            .retry_after
            .map(|s| [(header::RETRY_AFTER, s.to_string())]);
        (status, headers, retry, self.body).into_response()
    }
}

/// Whether a request is heavy work, answered by a worker of `heavy` (the others are answered
/// at once: each takes well under a millisecond).
pub(crate) fn is_heavy(method: &str, path: &str) -> bool {
    method == "POST" && matches!(path, "/api/plan" | "/api/predict" | "/api/reliability")
}

/// The answer to `method` `path` with `body`; heavy work stops early once `cancel` is raised.
pub(crate) fn reply(
    method: &str,
    path: &str,
    body: &str,
    catalog: &'static Catalog,
    cancel: Cancel,
) -> Reply {
    let inputs = Posted { catalog, cancel };
    match (method, path) {
        ("GET", "/") => Reply::ok("text/html; charset=utf-8", PAGE),
        ("GET", "/page.js") => Reply::ok("text/javascript; charset=utf-8", SCRIPT),
        ("GET", "/page.css") => Reply::ok("text/css; charset=utf-8", STYLE),
        ("GET", "/api/disks") => json(Ok(catalog.disks.values().collect::<Vec<_>>())),
        ("POST", "/api/plan") => json(answer(body, limits::plan, |r: PlanRequest| {
            r.answer(&inputs)
        })),
        ("POST", "/api/capacity") => json(answer(body, limits::capacity, |r: CapacityRequest| {
            Ok(r.answer(&inputs)?)
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
            Err(refusal) => Reply::refusal(&refusal),
        },
        (_, "/" | "/page.js" | "/page.css" | "/api/disks") => {
            Reply::error(405, &format!("{path} answers GET"))
        }
        (_, "/api/plan" | "/api/capacity" | "/api/predict" | "/api/reliability" | "/api/system") => {
            Reply::error(405, &format!("{path} answers POST"))
        }
        (_, p) if p.starts_with("/api/") => Reply::error(
            404,
            &format!("{p}: the API is POST /api/plan, /api/capacity, /api/predict, /api/reliability and /api/system"),
        ),
        _ => Reply::error(404, &format!("{path}: no such page")),
    }
}

/// The answer to a POST of `body` to `path`, as the server gives it but without HTTP: its
/// status and body (the fuzzing of the API's bodies calls it).
pub fn post(path: &str, body: &str) -> (u16, String) {
    let r = reply("POST", path, body, Catalog::embedded(), Cancel::never());
    (r.status, r.body)
}

/// The request of type `R` in `body`, checked against its limits, answered; a refusal in the
/// words of `R`'s fields.
fn answer<R, T>(
    body: &str,
    check: fn(&R) -> Result<(), Refusal>,
    answer: impl FnOnce(R) -> Result<T, Refusal>,
) -> Result<T, Refusal>
where
    R: clap::Args + clap::FromArgMatches,
{
    let request: R = from_json(body)?;
    check(&request)?;
    answer(request).map_err(in_fields::<R>)
}

/// An answer as the command line's `--json` prints it, or the refusal as HTTP 400.
fn json<T: Serialize>(answer: Result<T, Refusal>) -> Reply {
    match answer.and_then(|a| Ok(to_json(&a)?)) {
        Ok(text) => Reply::ok("application/json", text),
        Err(refusal) => Reply::refusal(&refusal),
    }
}
