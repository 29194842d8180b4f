//! [`HttpConfig`]: where and how the Streamable HTTP server listens, with safe defaults.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The address served when none is given: loopback only, port 8080.
pub const DEFAULT_BIND: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8080);
/// The endpoint path when none is given.
pub const DEFAULT_PATH: &str = "/mcp";
/// The largest request body accepted when no other limit is set: 4 MiB (rmcp's default).
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;
/// How long a request may take, from its headers to the response, when not set otherwise.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How many requests (POSTs) are handled at once when not set otherwise; more wait.
pub const DEFAULT_MAX_CONCURRENT_REQUESTS: usize = 128;
/// How long a shutdown waits for requests in flight when not set otherwise.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(30);
/// The origins accepted when none are given and the server is bound to a loopback address:
/// pages served from this machine (a DNS-rebinding page has a foreign origin).
pub const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];
/// The response header that names the instance, when [`HttpConfig::instance`] is set.
pub const INSTANCE_HEADER: &str = "fusion-instance";

/// How the Streamable HTTP server is set up. Every setting has a safe default:
///
/// | setting | default |
/// |---|---|
/// | [`bind`](Self::bind) | `127.0.0.1:8080` (loopback only) |
/// | [`path`](Self::path) | `/mcp` |
/// | [`legacy_sessions`](Self::legacy_sessions) | off: stateless (protocol 2026-07-28); older clients are served statelessly too |
/// | [`allow_origin`](Self::allow_origin) | bound to loopback: the loopback origins ([`LOOPBACK_ORIGINS`]); otherwise none. A request with another `Origin` gets 403; requests without one (non-browser clients) pass |
/// | [`allow_host`](Self::allow_host) | loopback names only (`localhost`, `127.0.0.1`, `::1`): another `Host` gets 403 |
/// | bearer tokens ([`bearer_token`](Self::bearer_token), [`bearer_tokens_from_env`](Self::bearer_tokens_from_env), [`bearer_tokens_from_file`](Self::bearer_tokens_from_file)) | none: no authentication |
/// | [`max_body_bytes`](Self::max_body_bytes) | 4 MiB; a larger body gets 413 |
/// | [`request_timeout`](Self::request_timeout) | 30 s from the request's headers to its response; then 408 |
/// | [`max_concurrent_requests`](Self::max_concurrent_requests) | 128 POSTs at once; more wait (up to the request timeout, then 503) |
/// | [`shutdown_grace`](Self::shutdown_grace) | 30 s for requests in flight to finish after SIGTERM/SIGINT |
/// | [`instance`](Self::instance) | none; when set, every response carries `fusion-instance: NAME` |
///
/// ```
/// use fusion_runtime::http::HttpConfig;
///
/// let config = HttpConfig::new()
///     .bind("127.0.0.1:3000".parse()?)
///     .allow_origin("https://app.example.com")
///     .bearer_token("correct-horse-battery-staple")
///     .request_timeout(std::time::Duration::from_secs(10));
/// assert_eq!(config.path_str(), "/mcp");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct HttpConfig {
    pub(crate) bind: SocketAddr,
    pub(crate) path: String,
    pub(crate) legacy_sessions: bool,
    pub(crate) allowed_origins: Vec<String>,
    pub(crate) allowed_hosts: Option<Vec<String>>,
    pub(crate) tokens: Vec<Box<[u8]>>,
    pub(crate) max_body_bytes: usize,
    pub(crate) request_timeout: Duration,
    pub(crate) max_concurrent_requests: usize,
    pub(crate) shutdown_grace: Duration,
    pub(crate) instance: Option<String>,
}

impl fmt::Debug for HttpConfig {
    /// Every setting but the tokens, of which only the count is shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpConfig")
            .field("bind", &self.bind)
            .field("path", &self.path)
            .field("legacy_sessions", &self.legacy_sessions)
            .field("allowed_origins", &self.allowed_origins)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("tokens", &self.tokens.len())
            .field("max_body_bytes", &self.max_body_bytes)
            .field("request_timeout", &self.request_timeout)
            .field("max_concurrent_requests", &self.max_concurrent_requests)
            .field("shutdown_grace", &self.shutdown_grace)
            .field("instance", &self.instance)
            .finish()
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            bind: DEFAULT_BIND,
            path: DEFAULT_PATH.to_owned(),
            legacy_sessions: false,
            allowed_origins: Vec::new(),
            allowed_hosts: None,
            tokens: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            max_concurrent_requests: DEFAULT_MAX_CONCURRENT_REQUESTS,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            instance: None,
        }
    }
}

impl HttpConfig {
    /// The defaults of the table above.
    pub fn new() -> Self {
        HttpConfig::default()
    }

    /// Listens on `address`. Binding a non-loopback address needs [`allow_host`](Self::allow_host)
    /// (or [`allow_any_host`](Self::allow_any_host)) for the names clients use: the server
    /// refuses to start otherwise, since every request would get 403.
    #[must_use]
    pub fn bind(mut self, address: SocketAddr) -> Self {
        self.bind = address;
        self
    }

    /// Serves the endpoint at `path` (default `/mcp`; other paths get 404). Only for
    /// [`HttpServer`](super::HttpServer): a service mounted with [`mcp_service`](super::mcp_service)
    /// answers wherever it is mounted.
    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Turns rmcp's legacy session mode on (`true`) or off (`false`, the default).
    ///
    /// Off, every request stands alone: no `Mcp-Session-Id`, so any instance behind a load
    /// balancer can answer any request. On, a client of a revision before 2026-07-28 gets a
    /// session at `initialize` (kept in this process's memory, so a load balancer must keep
    /// the client on one instance); 2026-07-28 requests are stateless either way.
    #[must_use]
    pub fn legacy_sessions(mut self, on: bool) -> Self {
        self.legacy_sessions = on;
        self
    }

    /// Accepts requests whose `Origin` is `origin` (a scheme, host and optional port, such as
    /// `https://app.example.com` or `http://localhost:*`; `:*` matches any port), in place of
    /// the default. Browser-based clients send an `Origin`; one not in the allowlist gets 403,
    /// which is what stops DNS rebinding attacks on a local server.
    #[must_use]
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.allowed_origins.push(origin.into());
        self
    }

    /// Accepts requests whose `Host` is `host` (a name, or `name:port`), in place of the
    /// loopback names allowed by default. Needed to serve a public name or behind a proxy that
    /// passes the public name on.
    #[must_use]
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.allowed_hosts
            .get_or_insert_with(Vec::new)
            .push(host.into());
        self
    }

    /// Accepts any `Host` header. Not for a server on a developer's machine (DNS rebinding);
    /// fine behind a proxy that checks the host itself.
    #[must_use]
    pub fn allow_any_host(mut self) -> Self {
        self.allowed_hosts = Some(Vec::new());
        self
    }

    /// Requires `Authorization: Bearer TOKEN` with this token (or another one added): a request
    /// without a token, or with another one, gets 401 with `WWW-Authenticate: Bearer`. Tokens
    /// are compared in constant time.
    #[must_use]
    pub fn bearer_token(mut self, token: impl AsRef<str>) -> Self {
        self.tokens
            .push(token.as_ref().trim().as_bytes().to_vec().into_boxed_slice());
        self
    }

    /// Requires a bearer token, one of those in the environment variable `variable`
    /// (separated by commas or whitespace, so that a token can be rotated without downtime).
    pub fn bearer_tokens_from_env(self, variable: &str) -> Result<Self, HttpError> {
        let value = std::env::var(variable).map_err(|_| {
            HttpError::Tokens(format!(
                "the environment variable {variable} is not set (or not UTF-8): set it to one or \
                 more bearer tokens, separated by commas"
            ))
        })?;
        let tokens: Vec<&str> = split_tokens(&value).collect();
        self.with_tokens(&tokens, &format!("the environment variable {variable}"))
    }

    /// Requires a bearer token, one of the lines of the file at `path` (empty lines and lines
    /// starting with `#` are skipped).
    pub fn bearer_tokens_from_file(self, path: impl AsRef<Path>) -> Result<Self, HttpError> {
        let path: PathBuf = path.as_ref().to_owned();
        let text = std::fs::read_to_string(&path).map_err(|error| {
            HttpError::Tokens(format!(
                "cannot read the token file {}: {error}; write one bearer token per line there",
                path.display()
            ))
        })?;
        let tokens: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .collect();
        self.with_tokens(&tokens, &format!("the token file {}", path.display()))
    }

    fn with_tokens(mut self, tokens: &[&str], source: &str) -> Result<Self, HttpError> {
        if tokens.is_empty() {
            return Err(HttpError::Tokens(format!(
                "{source} holds no token: put at least one bearer token there"
            )));
        }
        if let Some(bad) = tokens.iter().find(|token| !is_token68(token)) {
            let shown: String = bad.chars().take(4).collect();
            return Err(HttpError::Tokens(format!(
                "{source} holds a token (starting {shown:?}) with characters a bearer token \
                 cannot carry: use letters, digits and -._~+/ (and = at the end)"
            )));
        }
        for token in tokens {
            self = self.bearer_token(token);
        }
        Ok(self)
    }

    /// Answers 413 to a request body larger than `bytes`.
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Answers 408 to a request whose response is not ready `timeout` after its headers
    /// arrived: a client that sends its body too slowly, or a tool that takes too long.
    /// Headers themselves must arrive within the same time, or the connection is closed.
    #[must_use]
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// Handles at most `requests` POSTs at once (at least 1); the others wait their turn, within
    /// their request timeout (then 503 with `Retry-After`).
    #[must_use]
    pub fn max_concurrent_requests(mut self, requests: usize) -> Self {
        self.max_concurrent_requests = requests.clamp(1, tokio::sync::Semaphore::MAX_PERMITS);
        self
    }

    /// Gives requests in flight up to `grace` to finish once a shutdown starts.
    #[must_use]
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.shutdown_grace = grace;
        self
    }

    /// Names this instance in a `fusion-instance` header on every response: shows which
    /// instance behind a load balancer answered.
    #[must_use]
    pub fn instance(mut self, name: impl Into<String>) -> Self {
        self.instance = Some(name.into());
        self
    }

    /// The address to listen on.
    pub fn bind_address(&self) -> SocketAddr {
        self.bind
    }

    /// The endpoint path.
    pub fn path_str(&self) -> &str {
        &self.path
    }

    /// Whether legacy sessions are on.
    pub fn uses_legacy_sessions(&self) -> bool {
        self.legacy_sessions
    }

    /// The origins accepted: those allowed, or by default the loopback origins when bound to
    /// a loopback address (and none otherwise).
    pub(crate) fn origins(&self) -> Vec<String> {
        if self.allowed_origins.is_empty() && self.bind.ip().is_loopback() {
            LOOPBACK_ORIGINS.map(str::to_owned).to_vec()
        } else {
            self.allowed_origins.clone()
        }
    }

    /// Checks the settings together before serving.
    pub(crate) fn check(&self) -> Result<(), HttpError> {
        if !self.path.starts_with('/') {
            return Err(HttpError::Config(format!(
                "the endpoint path {:?} does not start with '/': use a path such as \"/mcp\"",
                self.path
            )));
        }
        if !self.bind.ip().is_loopback() && self.allowed_hosts.is_none() {
            return Err(HttpError::Config(format!(
                "{} is not a loopback address, but only loopback Host headers are allowed, so \
                 every request would get 403: call HttpConfig::allow_host with the names clients \
                 use (or allow_any_host behind a proxy that checks the host)",
                self.bind
            )));
        }
        Ok(())
    }
}

fn split_tokens(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|token| !token.is_empty())
}

/// RFC 6750's `b64token`: what a bearer token may contain.
fn is_token68(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// Why the Streamable HTTP server could not start or stopped with an error; each message says
/// what to change.
#[derive(Debug)]
#[non_exhaustive]
pub enum HttpError {
    /// The settings do not go together.
    Config(String),
    /// The bearer tokens could not be read.
    Tokens(String),
    /// The address could not be bound.
    Bind {
        /// The address asked for.
        address: SocketAddr,
        /// Why not.
        source: std::io::Error,
    },
    /// The runtime could not be started, or serving failed.
    Io(std::io::Error),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::Config(message) | HttpError::Tokens(message) => f.write_str(message),
            HttpError::Bind { address, source } => write!(
                f,
                "cannot listen on {address}: {source}; choose another address or port (port 0 \
                 picks a free one), or stop the process that holds it"
            ),
            HttpError::Io(source) => write!(f, "the HTTP server failed: {source}"),
        }
    }
}

impl std::error::Error for HttpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HttpError::Bind { source, .. } | HttpError::Io(source) => Some(source),
            HttpError::Config(_) | HttpError::Tokens(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_from_a_file_skip_comments_and_blank_lines() {
        let dir = std::env::temp_dir().join(format!("fusion-tokens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok();
        let file = dir.join("tokens");
        std::fs::write(&file, "# rotated 2026-12\n\nalpha-1\n  beta/2==  \n").ok();
        let config = HttpConfig::new().bearer_tokens_from_file(&file);
        let tokens: Vec<Vec<u8>> = config
            .map(|c| c.tokens.iter().map(|t| t.to_vec()).collect())
            .unwrap_or_default();
        assert_eq!(tokens, [b"alpha-1".to_vec(), b"beta/2==".to_vec()]);
        std::fs::write(&file, "# nothing\n").ok();
        let error = HttpConfig::new().bearer_tokens_from_file(&file).err();
        assert!(error.is_some_and(|e| e.to_string().contains("holds no token")));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_token_with_a_quote_inside_is_refused_and_not_echoed_whole() {
        let error = HttpConfig::new().with_tokens(&["sec\"ret"], "the test");
        let message = error.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("characters a bearer token cannot carry"));
        assert!(!message.contains("sec\\\"ret"));
        assert_eq!(
            split_tokens(" a, b\nc ").collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
    }

    #[test]
    fn a_public_bind_needs_allowed_hosts() {
        let public = HttpConfig::new().bind("0.0.0.0:80".parse().unwrap_or(DEFAULT_BIND));
        assert!(
            public
                .check()
                .is_err_and(|e| e.to_string().contains("allow_host"))
        );
        assert!(public.allow_host("mcp.example.com").check().is_ok());
        assert!(HttpConfig::new().path("mcp").check().is_err());
        assert!(HttpConfig::new().check().is_ok());
    }
}
