//! The HTTP server (axum on a tokio runtime of its own): every request checked at the gate,
//! then answered by `routes`, heavy work by the workers of `heavy`.

use crate::fleet::{self, Fleet};
use crate::gate;
use crate::heavy::Heavy;
use crate::limits::{default_workers, MAX_BODY_BYTES};
use crate::routes::{self, Reply};
use axum::body::Body;
use axum::extract::connect_info::{ConnectInfo, Connected};
use axum::extract::{Request, State};
use axum::response::Response;
use axum::serve::IncomingStream;
use model::cancel::Cancel;
use model::Catalog;
use std::net::SocketAddr;
use std::sync::Arc;
use tower_http::compression::CompressionLayer;

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
    workers: usize,
    fleet: Option<Arc<dyn Fleet>>,
}

/// What every request shares: the catalog, and the workers of heavy requests.
#[derive(Clone)]
struct Shared {
    catalog: &'static Catalog,
    heavy: Heavy,
    /// The results store of the fleet view, when one was given.
    fleet: Option<Arc<dyn Fleet>>,
}

/// The address a connection reached: the one its Host must name.
#[derive(Clone, Copy)]
struct Reached(Option<SocketAddr>);

impl Connected<IncomingStream<'_, tokio::net::TcpListener>> for Reached {
    fn connect_info(stream: IncomingStream<'_, tokio::net::TcpListener>) -> Self {
        Reached(stream.io().local_addr().ok())
    }
}

impl Server {
    /// Listens on `address` (port 0: any free port; `address()` tells which), with one worker
    /// for heavy requests per core.
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
            workers: default_workers(),
            fleet: None,
        })
    }

    /// Serves the fleet view (`/fleet`) over this results store.
    pub fn with_fleet(self, fleet: Arc<dyn Fleet>) -> Server {
        Server {
            fleet: Some(fleet),
            ..self
        }
    }

    /// This server with `workers` heavy requests at work at once (at least one).
    pub fn with_workers(self, workers: usize) -> Server {
        Server { workers, ..self }
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
            heavy: Heavy::new(self.workers),
            fleet: self.fleet,
        };
        // Text answers gzip-encoded when the client asks (Accept-Encoding): the page's own
        // files shrink to about a fifth.
        let app = axum::Router::new()
            .fallback(answer)
            .with_state(shared)
            .layer(CompressionLayer::new());
        self.runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)
                .map_err(|e| ServeError(format!("cannot listen: {e}")))?;
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<Reached>(),
            )
            .await
            .map_err(|e| ServeError(format!("the server stopped: {e}")))
        })
    }
}

/// A request answered: refused at the gate, answered at once when light, or by a worker.
async fn answer(State(shared): State<Shared>, request: Request) -> Response {
    let reached = request
        .extensions()
        .get::<ConnectInfo<Reached>>()
        .and_then(|c| c.0 .0);
    let Some(local) = reached else {
        return Reply::error(500, "internal error: the connection has no address").into_response();
    };
    if let Err(refused) = gate::admit(request.method(), request.headers(), local) {
        return refused.into_response();
    }
    let method = request.method().to_string();
    let path = request.uri().path().to_string();
    if fleet::is_fleet_path(&path) {
        let query = request.uri().query().unwrap_or("").to_string();
        let store = shared.fleet.clone();
        let asked = tokio::task::spawn_blocking(move || {
            fleet::reply(store.as_deref(), &method, &path, &query)
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
    let catalog = shared.catalog;
    let reply = if routes::is_heavy(&method, &path) {
        let work = move |cancel| routes::reply(&method, &path, &body, catalog, cancel);
        shared.heavy.run(work).await
    } else {
        routes::reply(&method, &path, &body, catalog, Cancel::never())
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
