//! The HTTP server (axum on a tokio runtime of its own): every request answered by `routes`;
//! the API's work on the blocking pool, under the time limit and the cap on requests at work.

use crate::fleet::Fleet;
use crate::limits::{MAX_AT_WORK, MAX_BODY_BYTES, TIME_LIMIT};
use crate::routes::{self, Reply};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use model::Catalog;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

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
    runtime: tokio::runtime::Runtime,
    listener: std::net::TcpListener,
    catalog: &'static Catalog,
    fleet: Option<Arc<dyn Fleet>>,
}

/// What every request shares: the catalog, and the permits of the requests at work.
#[derive(Clone)]
struct Shared {
    catalog: &'static Catalog,
    at_work: Arc<Semaphore>,
    /// The results store of the fleet view, when one was given.
    fleet: Option<Arc<dyn Fleet>>,
}

impl Server {
    /// Listens on `address` (port 0: any free port; `address()` tells which).
    pub fn bind(address: SocketAddr, catalog: &'static Catalog) -> Result<Server, ServeError> {
        let cannot = |e: std::io::Error| ServeError(format!("cannot listen on {address}: {e}"));
        let listener = std::net::TcpListener::bind(address).map_err(cannot)?;
        listener.set_nonblocking(true).map_err(cannot)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| ServeError(format!("cannot start the server's threads: {e}")))?;
        Ok(Server {
            runtime,
            listener,
            catalog,
            fleet: None,
        })
    }

    /// Serves the fleet view (`/fleet`) over this results store.
    pub fn with_fleet(mut self, fleet: Arc<dyn Fleet>) -> Server {
        self.fleet = Some(fleet);
        self
    }

    /// The address it listens on.
    pub fn address(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound socket has an address")
    }

    /// Answers requests until the process ends.
    pub fn run(self) -> Result<(), ServeError> {
        let shared = Shared {
            catalog: self.catalog,
            at_work: Arc::new(Semaphore::new(MAX_AT_WORK)),
            fleet: self.fleet,
        };
        let app = axum::Router::new().fallback(answer).with_state(shared);
        self.runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)
                .map_err(|e| ServeError(format!("cannot listen: {e}")))?;
            axum::serve(listener, app)
                .await
                .map_err(|e| ServeError(format!("the server stopped: {e}")))
        })
    }
}

async fn answer(State(shared): State<Shared>, request: Request) -> Response {
    let method = request.method().to_string();
    let path = request.uri().path().to_string();
    if crate::fleet::is_fleet_path(&path) {
        let query = request.uri().query().unwrap_or("").to_string();
        let fleet = shared.fleet.clone();
        let asked = tokio::task::spawn_blocking(move || {
            crate::fleet::reply(fleet.as_deref(), &method, &path, &query)
        });
        return asked
            .await
            .unwrap_or_else(|_| Reply::error(500, "internal error (a defect: please report it)"))
            .into_response();
    }
    let body = match read_body(request.into_body()).await {
        Ok(body) => body,
        Err(reply) => return reply.into_response(),
    };
    let reply = if path.starts_with("/api/") && method == "POST" {
        within_limits(&shared, move |catalog| {
            routes::reply(&method, &path, &body, catalog)
        })
        .await
    } else {
        routes::reply(&method, &path, &body, shared.catalog)
    };
    reply.into_response()
}

/// The body as text, at most `MAX_BODY_BYTES` of it.
async fn read_body(body: Body) -> Result<String, Reply> {
    let bytes = axum::body::to_bytes(body, MAX_BODY_BYTES as usize)
        .await
        .map_err(|_| {
            Reply::error(
                413,
                &format!("the request body is over {MAX_BODY_BYTES} bytes, or was cut short"),
            )
        })?;
    String::from_utf8(bytes.to_vec())
        .map_err(|_| Reply::error(400, "the request body is not UTF-8 text"))
}

/// The reply of `work` once fewer than `MAX_AT_WORK` requests are at work, unless waiting and
/// working outlast the time limit (the work then runs on to its end, bounded by the caps and
/// holding its place, but nobody waits for it).
async fn within_limits(
    shared: &Shared,
    work: impl FnOnce(&'static Catalog) -> Reply + Send + 'static,
) -> Reply {
    let catalog = shared.catalog;
    let at_work = Arc::clone(&shared.at_work);
    let answered = tokio::time::timeout(TIME_LIMIT, async move {
        let permit = at_work.acquire_owned().await?;
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(catalog)
        });
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(task.await?)
    });
    match answered.await {
        Ok(Ok(reply)) => reply,
        Ok(Err(_)) => Reply::error(500, "internal error (a defect: please report it)"),
        Err(_) => Reply::error(
            503,
            &format!(
                "no answer within {} s; ask for less (fewer disks, trials or sweep points)",
                TIME_LIMIT.as_secs()
            ),
        ),
    }
}
