//! [`McpHttpService`]: rmcp's Streamable HTTP service behind fusion's guards (bearer token,
//! early body-size check, concurrency limit, request timeout), as a tower service.
//!
//! rmcp itself checks `Host` and `Origin` (403), the body size while reading it (413), and the
//! MCP headers; the guards here run first.

use std::convert::Infallible;
use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Buf, Bytes};
use http::header::{AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Response, StatusCode};
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::config::{HttpConfig, INSTANCE_HEADER};
use crate::adapters::rmcp::classify::{
    BodyVerdict, INVALID_PARAMS, METHOD_NOT_FOUND, PARSE_ERROR, Rejection, classify_body,
};

/// The body of every response: rmcp's boxed body.
pub type ResponseBody = BoxBody<Bytes, Infallible>;

/// A `FusionServer` (or any rmcp [`ServerHandler`]) as a tower service answering Streamable
/// HTTP requests, with the guards of its [`HttpConfig`]. Build it with
/// [`mcp_service`](super::mcp_service) and mount it in an existing app, or let
/// [`HttpServer`](super::HttpServer) serve it.
///
/// It answers at whatever path it is mounted; [`HttpConfig::path`] is for `HttpServer` only.
/// Cloning is cheap (shared state), as tower services expect.
pub struct McpHttpService<S> {
    /// Shared: rmcp's service holds its whole configuration (the allowed hosts and origins),
    /// which a clone per request would copy.
    inner: Arc<StreamableHttpService<Arc<S>, LocalSessionManager>>,
    guard: Arc<Guard>,
}

impl<S> Clone for McpHttpService<S> {
    fn clone(&self) -> Self {
        McpHttpService {
            inner: self.inner.clone(),
            guard: self.guard.clone(),
        }
    }
}

impl<S> std::fmt::Debug for McpHttpService<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHttpService")
            .field("legacy_sessions", &self.inner.config.legacy_session_mode)
            .field("in_flight", &self.in_flight())
            .finish_non_exhaustive()
    }
}

/// What the guards need, shared by every clone of the service.
struct Guard {
    tokens: Vec<Box<[u8]>>,
    max_body_bytes: usize,
    timeout: Duration,
    limiter: Arc<Semaphore>,
    capacity: usize,
    instance: Option<HeaderValue>,
    streams: CancellationToken,
}

impl<S: ServerHandler> McpHttpService<S> {
    /// The service for `server` with the guards of `config`.
    pub(crate) fn new(server: Arc<S>, config: &HttpConfig) -> Self {
        let mut rmcp_config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(config.legacy_sessions)
            // A tool call answers with one JSON body (SSE only when the handler sends
            // notifications first): simpler for clients and for proxies that buffer.
            .with_json_response(true)
            .with_max_request_body_bytes(config.max_body_bytes)
            .with_allowed_origins(config.origins())
            .enforce_origin_validation();
        if let Some(hosts) = &config.allowed_hosts {
            rmcp_config = if hosts.is_empty() {
                rmcp_config.disable_allowed_hosts()
            } else {
                rmcp_config.with_allowed_hosts(hosts.iter().cloned())
            };
        }
        let streams = rmcp_config.cancellation_token.clone();
        let inner = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            rmcp_config,
        );
        let capacity = config.max_concurrent_requests;
        let guard = Guard {
            tokens: config.tokens.clone(),
            max_body_bytes: config.max_body_bytes,
            timeout: config.request_timeout,
            limiter: Arc::new(Semaphore::new(capacity)),
            capacity,
            instance: config
                .instance
                .as_deref()
                .and_then(|name| HeaderValue::from_str(name).ok()),
            streams,
        };
        McpHttpService {
            inner: Arc::new(inner),
            guard: Arc::new(guard),
        }
    }
}

impl<S> McpHttpService<S> {
    /// How many POSTs are being handled now (their responses not yet fully sent).
    pub fn in_flight(&self) -> usize {
        self.guard.capacity - self.guard.limiter.available_permits()
    }

    /// Waits until no POST is in flight (or `grace` has passed), then ends the open SSE
    /// streams and sessions. Returns whether every request finished in time. Call it when
    /// the app shuts down, after it stopped accepting connections; requests that arrive
    /// meanwhile wait and then get 503.
    pub async fn drain(&self, grace: Duration) -> bool {
        let all = u32::try_from(self.guard.capacity).unwrap_or(u32::MAX);
        let acquired = tokio::time::timeout(grace, self.guard.limiter.acquire_many(all)).await;
        // Closed while every slot is held, so no request starts between the two.
        self.guard.limiter.close();
        self.guard.streams.cancel();
        acquired.is_ok()
    }
}

impl<S, B> tower_service::Service<Request<B>> for McpHttpService<S>
where
    S: ServerHandler,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Display,
{
    type Response = Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // Backpressure is the concurrency limit inside `call`, bounded by the request timeout.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move {
            let mut response = service.guarded(request).await;
            if let Some(instance) = &service.guard.instance {
                response
                    .headers_mut()
                    .insert(HeaderName::from_static(INSTANCE_HEADER), instance.clone());
            }
            Ok(response)
        })
    }
}

impl<S: ServerHandler> McpHttpService<S> {
    async fn guarded<B>(&self, request: Request<B>) -> Response<ResponseBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Display,
    {
        let guard = &*self.guard;
        if let Some(refusal) = guard.refusal(request.headers()) {
            return refusal;
        }
        if declared_length(request.headers()).is_some_and(|length| length > guard.max_body_bytes) {
            return too_large(guard.max_body_bytes);
        }
        let deadline = tokio::time::Instant::now() + guard.timeout;
        // Only POSTs carry calls; a session's GET stream stays open by design and must not
        // hold a slot.
        let permit = if request.method() == Method::POST {
            match tokio::time::timeout_at(deadline, guard.limiter.clone().acquire_owned()).await {
                Ok(Ok(permit)) => Some(permit),
                Ok(Err(_closed)) => return unavailable("the server is shutting down"),
                Err(_elapsed) => {
                    return unavailable(&format!(
                        "{} requests were in flight for the whole request timeout",
                        guard.capacity
                    ));
                }
            }
        } else {
            None
        };
        match tokio::time::timeout_at(deadline, self.checked(request)).await {
            Ok(response) => match permit {
                // The slot is held until the response body is sent (or dropped): a session's
                // answer streams after the head.
                Some(permit) => response.map(|body| {
                    Held {
                        body,
                        _permit: permit,
                    }
                    .boxed()
                }),
                None => response,
            },
            Err(_elapsed) => timed_out(guard.timeout),
        }
    }
}

impl<S: ServerHandler> McpHttpService<S> {
    /// A POST's JSON body through the guard stdio has too (`classify_body`): what it answers
    /// is answered here, with the same JSON-RPC error as on stdio; the rest goes to rmcp.
    /// Other requests (and bodies that do not claim to be JSON, which rmcp answers 415) go to
    /// rmcp as they are.
    async fn checked<B>(&self, request: Request<B>) -> Response<ResponseBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Display,
    {
        // rmcp's future is boxed where it is made (here, as in rmcp's own `call`): held inline,
        // its kilobytes would be copied with every future around it as they are made and moved.
        if request.method() != Method::POST || !claims_json(request.headers()) {
            return Box::pin(self.inner.handle(request)).await;
        }
        let (parts, body) = request.into_parts();
        let body = match read_body(body, self.guard.max_body_bytes).await {
            Ok(body) => body,
            Err(refusal) => return refusal,
        };
        let body = match classify_body(&body) {
            BodyVerdict::Forward(None) => body,
            BodyVerdict::Forward(Some(rewritten)) => Bytes::from(rewritten),
            BodyVerdict::Answer(rejection) => return rejected(&rejection),
            BodyVerdict::Accept => return accepted(),
        };
        Box::pin(
            self.inner
                .handle(Request::from_parts(parts, Full::new(body))),
        )
        .await
    }
}

/// Whether the request says its body is JSON (`application/json`, any parameters).
fn claims_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value
                .split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .eq_ignore_ascii_case("application/json")
        })
}

/// The whole body, at most `max` bytes: 413 beyond, 400 when its framing breaks (a bad chunk,
/// fewer bytes than its `Content-Length`): a client's mistake, never a server error.
async fn read_body<B>(body: B, max: usize) -> Result<Bytes, Response<ResponseBody>>
where
    B: Body + Send + 'static,
    B::Error: Display,
{
    let mut body = std::pin::pin!(body);
    let mut read = bytes::BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| {
            rejected_with(
                StatusCode::BAD_REQUEST,
                &Rejection {
                    id: serde_json::Value::Null,
                    code: PARSE_ERROR,
                    message: format!(
                        "Parse error: the request body could not be read ({error}); send the \
                         whole body as its Content-Length or chunks announce"
                    ),
                },
            )
        })?;
        if let Ok(mut data) = frame.into_data() {
            if read.len() + data.remaining() > max {
                return Err(too_large(max));
            }
            while data.has_remaining() {
                let chunk = data.chunk();
                read.extend_from_slice(chunk);
                let taken = chunk.len();
                data.advance(taken);
            }
        }
    }
    Ok(read.freeze())
}

/// The HTTP answer to a JSON-RPC error of the guard: 400 for a body that is not a JSON-RPC
/// request (parse error, invalid request), 200 for invalid params of a valid request (an
/// answer in band, as rmcp gives its own), 404 for a method the stateless revision removed.
fn rejected(rejection: &Rejection) -> Response<ResponseBody> {
    let status = match rejection.code {
        INVALID_PARAMS => StatusCode::OK,
        // As rmcp answers an unknown method of the stateless revision.
        METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        _ => StatusCode::BAD_REQUEST,
    };
    rejected_with(status, rejection)
}

fn rejected_with(status: StatusCode, rejection: &Rejection) -> Response<ResponseBody> {
    let mut response = Response::new(Full::new(Bytes::from(rejection.to_json())).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// 202 Accepted without a body: a notification or response nobody answers.
fn accepted() -> Response<ResponseBody> {
    let mut response = Response::new(Full::new(Bytes::new()).boxed());
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

impl Guard {
    /// The 401 answer to a request without an accepted bearer token; `None` when it may pass.
    fn refusal(&self, headers: &HeaderMap) -> Option<Response<ResponseBody>> {
        if self.tokens.is_empty() {
            return None;
        }
        let Some(value) = headers.get(AUTHORIZATION) else {
            return Some(unauthorized(
                "Bearer realm=\"mcp\"",
                "Unauthorized: this MCP server needs a bearer token; send the header \
                 `Authorization: Bearer TOKEN`",
            ));
        };
        // The scheme name is case-insensitive (RFC 9110 §11.1).
        let presented = value
            .as_bytes()
            .split_at_checked(b"Bearer ".len())
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(b"Bearer "))
            .map(|(_, token)| token.trim_ascii());
        let valid = presented.is_some_and(|presented| {
            // Every token is compared, so the time taken does not tell which one was close.
            self.tokens.iter().fold(false, |found, token| {
                found | constant_time_eq(token, presented)
            })
        });
        if valid {
            None
        } else {
            Some(unauthorized(
                "Bearer realm=\"mcp\", error=\"invalid_token\"",
                "Unauthorized: the bearer token is not one this server accepts; check the \
                 token configured in the client",
            ))
        }
    }
}

/// Equality whose time depends on the lengths only, not on where the bytes differ.
fn constant_time_eq(expected: &[u8], presented: &[u8]) -> bool {
    let mut difference = u8::from(expected.len() != presented.len());
    for (index, byte) in expected.iter().enumerate() {
        difference |= byte ^ presented.get(index).copied().unwrap_or(!byte);
    }
    difference == 0
}

fn declared_length(headers: &HeaderMap) -> Option<usize> {
    headers.get(CONTENT_LENGTH)?.to_str().ok()?.parse().ok()
}

fn text_response(status: StatusCode, message: String) -> Response<ResponseBody> {
    let mut response = Response::new(Full::new(Bytes::from(message)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

fn unauthorized(challenge: &'static str, message: &str) -> Response<ResponseBody> {
    let mut response = text_response(StatusCode::UNAUTHORIZED, message.to_owned());
    response
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
    response
}

fn too_large(limit: usize) -> Response<ResponseBody> {
    text_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("Payload Too Large: request body exceeds {limit} bytes; send a smaller request"),
    )
}

fn unavailable(why: &str) -> Response<ResponseBody> {
    let mut response = text_response(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("Service Unavailable: {why}; retry in a moment"),
    );
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

fn timed_out(timeout: Duration) -> Response<ResponseBody> {
    let mut response = text_response(
        StatusCode::REQUEST_TIMEOUT,
        format!(
            "Request Timeout: no response within {} ms of the request's headers; send the \
             whole request at once, and keep tool calls within the server's request timeout",
            timeout.as_millis()
        ),
    );
    // The body may be unread: the connection cannot be reused.
    response
        .headers_mut()
        .insert(http::header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A response body that holds a concurrency slot until it is finished or dropped.
struct Held {
    body: ResponseBody,
    _permit: OwnedSemaphorePermit,
}

impl Body for Held {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_time_eq_is_equality() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert!(!constant_time_eq(b"secret", b"secre"));
        assert!(!constant_time_eq(b"secret", b""));
        assert!(!constant_time_eq(b"\xff", b""));
    }

    fn guard(tokens: &[&str]) -> Guard {
        Guard {
            tokens: tokens
                .iter()
                .map(|t| t.as_bytes().to_vec().into_boxed_slice())
                .collect(),
            max_body_bytes: 10,
            timeout: Duration::from_secs(1),
            limiter: Arc::new(Semaphore::new(1)),
            capacity: 1,
            instance: None,
            streams: CancellationToken::new(),
        }
    }

    fn headers(authorization: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = authorization {
            headers.insert(AUTHORIZATION, HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn bearer_tokens_are_checked() {
        let rotating = guard(&["old-token", "new-token"]);
        assert!(
            rotating
                .refusal(&headers(Some("Bearer new-token")))
                .is_none()
        );
        assert!(
            rotating
                .refusal(&headers(Some("Bearer old-token")))
                .is_none()
        );
        for scheme in ["bearer", "BEARER", "bEaReR"] {
            let value = HeaderValue::from_str(&format!("{scheme} new-token"))
                .unwrap_or_else(|_| HeaderValue::from_static(""));
            let mut with = HeaderMap::new();
            with.insert(AUTHORIZATION, value);
            assert!(rotating.refusal(&with).is_none(), "{scheme}");
        }
        for wrong in [
            None,
            Some("Bearer nope"),
            Some("Basic new-token"),
            Some("Bearer "),
        ] {
            let response = rotating.refusal(&headers(wrong));
            assert_eq!(
                response.as_ref().map(Response::status),
                Some(StatusCode::UNAUTHORIZED)
            );
            let challenge = response
                .as_ref()
                .and_then(|r| r.headers().get(WWW_AUTHENTICATE))
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            assert!(challenge.starts_with("Bearer realm=\"mcp\""), "{challenge}");
        }
        assert!(guard(&[]).refusal(&headers(None)).is_none());
    }
}
