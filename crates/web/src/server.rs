//! The HTTP server: a few threads taking requests from one listening socket, each answered by
//! `routes`, the work of each under the time limit and the cap on requests at work.

use crate::limits::{MAX_AT_WORK, MAX_BODY_BYTES, TIME_LIMIT};
use crate::routes::{self, Reply};
use model::Catalog;
use std::io::Read;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;

/// Threads taking requests: a page load is never stuck behind one plan.
const THREADS: usize = 4;

/// Why the server could not start.
#[derive(Debug)]
pub struct ServeError(pub String);

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

/// A bound server, not yet answering.
pub struct Server {
    http: Arc<tiny_http::Server>,
    catalog: &'static Catalog,
}

impl Server {
    /// Listens on `address` (port 0: any free port; `address()` tells which).
    pub fn bind(address: SocketAddr, catalog: &'static Catalog) -> Result<Server, ServeError> {
        let http = tiny_http::Server::http(address)
            .map_err(|e| ServeError(format!("cannot listen on {address}: {e}")))?;
        Ok(Server {
            http: Arc::new(http),
            catalog,
        })
    }

    /// The address it listens on.
    pub fn address(&self) -> SocketAddr {
        self.http
            .server_addr()
            .to_ip()
            .expect("an HTTP server listens on an IP address")
    }

    /// Answers requests until the process ends.
    pub fn run(self) {
        let at_work = Arc::new(AtomicUsize::new(0));
        let workers: Vec<_> = (0..THREADS)
            .map(|_| {
                let (http, at_work) = (Arc::clone(&self.http), Arc::clone(&at_work));
                let catalog = self.catalog;
                thread::spawn(move || {
                    for request in http.incoming_requests() {
                        answer(request, catalog, &at_work);
                    }
                })
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
    }
}

fn answer(mut request: tiny_http::Request, catalog: &'static Catalog, at_work: &Arc<AtomicUsize>) {
    let reply = match read_body(&mut request) {
        Ok(body) => {
            let method = request.method().to_string();
            let url = request.url();
            let path = url.split('?').next().unwrap_or("").to_string();
            if path.starts_with("/api/") && method == "POST" {
                within_limits(at_work, move || {
                    routes::reply(&method, &path, &body, catalog)
                })
            } else {
                routes::reply(&method, &path, &body, catalog)
            }
        }
        Err(reply) => reply,
    };
    let _ = request.respond(reply.into_response());
}

/// The body as text, at most `MAX_BODY_BYTES` of it.
fn read_body(request: &mut tiny_http::Request) -> Result<String, Reply> {
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY_BYTES + 1)
        .read_to_end(&mut body);
    if read.is_err() {
        return Err(Reply::error(400, "the request body could not be read"));
    }
    if body.len() as u64 > MAX_BODY_BYTES {
        return Err(Reply::error(
            413,
            &format!("the request body is over {MAX_BODY_BYTES} bytes"),
        ));
    }
    String::from_utf8(body).map_err(|_| Reply::error(400, "the request body is not UTF-8 text"))
}

/// One request at work: counted from before it starts until it ends, even by a panic.
struct AtWork(Arc<AtomicUsize>);

impl Drop for AtWork {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The reply of `work`, unless `MAX_AT_WORK` requests are at work already or it outlasts the
/// time limit (it then runs on to its end, bounded by the caps and still counted, but nobody
/// waits for it).
fn within_limits(
    at_work: &Arc<AtomicUsize>,
    work: impl FnOnce() -> Reply + Send + 'static,
) -> Reply {
    let counted = AtWork(Arc::clone(at_work));
    if at_work.fetch_add(1, Ordering::SeqCst) >= MAX_AT_WORK {
        return Reply::error(503, "too many requests at work; try again in a moment");
    }
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let _counted = counted;
        let _ = send.send(work());
    });
    match receive.recv_timeout(TIME_LIMIT) {
        Ok(reply) => reply,
        Err(RecvTimeoutError::Timeout) => Reply::error(
            503,
            &format!(
                "the answer took over {} s; ask for less (fewer disks, trials or sweep points)",
                TIME_LIMIT.as_secs()
            ),
        ),
        Err(RecvTimeoutError::Disconnected) => {
            Reply::error(500, "internal error (a defect: please report it)")
        }
    }
}
