//! [`HttpServer`]: listens on a TCP address, serves [`McpHttpService`] at one path over HTTP/1.1,
//! and shuts down gracefully on SIGTERM or SIGINT.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use rmcp::ServerHandler;
use tokio::net::TcpListener;
use tower_service::Service;

use super::config::{HttpConfig, HttpError};
use super::service::{McpHttpService, ResponseBody};

/// How long to wait, after a failed `accept` (such as too many open files), before accepting
/// again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// After the grace period, how long connections get to close before serving returns anyway.
const CLOSE_MARGIN: Duration = Duration::from_secs(1);

/// A bound listener, ready to serve an MCP server over Streamable HTTP.
///
/// ```no_run
/// # async fn run(server: fusion_runtime::rmcp::FusionServer) -> Result<(), fusion_runtime::http::HttpError> {
/// use fusion_runtime::http::{HttpConfig, HttpServer};
///
/// let listening = HttpServer::bind(HttpConfig::new().bind("127.0.0.1:0".parse().unwrap())).await?;
/// eprintln!("serving at {}", listening.url()); // port 0: a free port, chosen now
/// listening.serve(server).await // until SIGTERM or SIGINT
/// # }
/// ```
#[derive(Debug)]
pub struct HttpServer {
    listener: TcpListener,
    config: HttpConfig,
}

impl HttpServer {
    /// Checks `config` and binds its address (needs a Tokio runtime).
    pub async fn bind(config: HttpConfig) -> Result<Self, HttpError> {
        config.check()?;
        let listener = TcpListener::bind(config.bind)
            .await
            .map_err(|source| HttpError::Bind {
                address: config.bind,
                source,
            })?;
        Ok(HttpServer { listener, config })
    }

    /// The address bound (with the port chosen, when the configuration asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().unwrap_or(self.config.bind)
    }

    /// The endpoint's URL, such as `http://127.0.0.1:8080/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.local_addr(), self.config.path)
    }

    /// Serves `server` until SIGTERM or SIGINT (Ctrl-C), then shuts down gracefully: no new
    /// connections, requests in flight get [`HttpConfig::shutdown_grace`] to finish, then open
    /// streams end. Progress of the shutdown is reported on stderr.
    pub async fn serve<S: ServerHandler>(self, server: S) -> Result<(), HttpError> {
        self.serve_until(server, shutdown_signal()).await
    }

    /// Serves `server` until `shutdown` completes, then shuts down as [`serve`](Self::serve)
    /// does.
    pub async fn serve_until<S, F>(self, server: S, shutdown: F) -> Result<(), HttpError>
    where
        S: ServerHandler,
        F: Future<Output = ()>,
    {
        let HttpServer { listener, config } = self;
        let service = McpHttpService::new(Arc::new(server), &config);
        let path: Arc<str> = config.path.as_str().into();
        let graceful = GracefulShutdown::new();
        let mut http1 = hyper::server::conn::http1::Builder::new();
        http1
            .timer(TokioTimer::new())
            .header_read_timeout(config.request_timeout);
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = &mut shutdown => break,
            };
            let stream = match accepted {
                Ok((stream, _peer)) => stream,
                Err(error) => {
                    eprintln!("fusion http: accepting a connection failed: {error}");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            };
            let service = service.clone();
            let path = path.clone();
            let routed = hyper::service::service_fn(move |request: Request<Incoming>| {
                let mut service = service.clone();
                let path = path.clone();
                async move {
                    if request.uri().path() == &*path {
                        service.call(request).await
                    } else {
                        Ok(not_found(&path))
                    }
                }
            });
            let connection = graceful.watch(http1.serve_connection(TokioIo::new(stream), routed));
            tokio::spawn(async move {
                // A client that goes away mid-request is not the server's error.
                let _ = connection.await;
            });
        }
        drop(listener);
        eprintln!(
            "fusion http: shutting down: {} request(s) in flight, waiting up to {} s for them",
            service.in_flight(),
            config.shutdown_grace.as_secs_f64()
        );
        let closing = async {
            let (finished, ()) =
                tokio::join!(service.drain(config.shutdown_grace), graceful.shutdown());
            finished
        };
        match tokio::time::timeout(config.shutdown_grace + CLOSE_MARGIN, closing).await {
            Ok(true) => eprintln!("fusion http: stopped; every request finished"),
            _ => eprintln!(
                "fusion http: stopped; {} request(s) were cut off at the end of the grace period \
                 (HttpConfig::shutdown_grace)",
                service.in_flight()
            ),
        }
        Ok(())
    }
}

/// Serves `server` as `config` says until SIGTERM or SIGINT, on a multi-threaded Tokio runtime
/// of its own: a `main` needs no async code. Prints the endpoint's URL on stderr once listening.
pub fn serve_http_blocking<S: ServerHandler>(
    server: S,
    config: HttpConfig,
) -> Result<(), HttpError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(HttpError::Io)?;
    runtime.block_on(async move {
        let mode = if config.legacy_sessions {
            "legacy sessions for clients before 2026-07-28"
        } else {
            "stateless"
        };
        let listening = HttpServer::bind(config).await?;
        eprintln!(
            "fusion http: serving MCP over Streamable HTTP at {} ({mode})",
            listening.url()
        );
        listening.serve(server).await
    })
}

fn not_found(path: &str) -> Response<ResponseBody> {
    let mut response = Response::new(
        Full::new(Bytes::from(format!(
            "Not Found: the MCP endpoint of this server is {path}"
        )))
        .boxed(),
    );
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

/// Completes at the first SIGTERM or SIGINT (Ctrl-C elsewhere than Unix).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut terminate), Ok(mut interrupt)) => {
                tokio::select! {
                    _ = terminate.recv() => {}
                    _ = interrupt.recv() => {}
                }
                return;
            }
            (Err(error), _) | (_, Err(error)) => {
                eprintln!("fusion http: cannot listen for SIGTERM ({error}); only Ctrl-C stops");
            }
        }
    }
    if tokio::signal::ctrl_c().await.is_err() {
        // No way to be told: serve until the process is killed.
        std::future::pending::<()>().await;
    }
}
