//! The command line of the example servers: stdio by default, Streamable HTTP with `--http`.
//!
//! ```text
//! --http ADDR               serve Streamable HTTP on ADDR (such as 127.0.0.1:8080; port 0 = any free port)
//! --sessions                rmcp's legacy session mode for clients before 2026-07-28 (default: stateless)
//! --allow-origin ORIGIN     accept this Origin (repeatable; default: loopback origins, others get 403)
//! --allow-host HOST         accept this Host (repeatable; default: loopback names)
//! --token-env VAR           require a bearer token, one of those in the environment variable VAR
//! --token-file PATH         require a bearer token, one of the lines of PATH
//! --max-body BYTES          answer 413 above this body size (default 4 MiB)
//! --request-timeout-ms MS   answer 408 when a response is not ready in time (default 30000)
//! --max-concurrent N        requests handled at once (default 128)
//! --shutdown-grace-ms MS    time for calls in flight after SIGTERM (default 30000)
//! --instance NAME           add `fusion-instance: NAME` to every response
//! ```

use std::time::Duration;

use fusion_runtime::http::HttpConfig;

/// How to serve: stdio, or Streamable HTTP with this configuration.
#[derive(Debug)]
pub enum Transport {
    /// MCP over stdin and stdout.
    Stdio,
    /// Streamable HTTP (boxed: a configuration is much larger than nothing).
    Http(Box<HttpConfig>),
}

/// Reads the options above from `args` (without the program name). Errors say which option
/// is wrong and what it takes.
pub fn transport(args: impl IntoIterator<Item = String>) -> Result<Transport, String> {
    let mut args = args.into_iter();
    let mut http = false;
    let mut config = HttpConfig::new();
    while let Some(flag) = args.next() {
        let mut value = |what: &str| {
            args.next()
                .ok_or_else(|| format!("{flag} needs a value: {flag} {what}"))
        };
        config = match flag.as_str() {
            "--http" => {
                http = true;
                let address = value("127.0.0.1:PORT")?;
                let address = address.parse().map_err(|_| {
                    format!("--http takes an IP address and port, such as 127.0.0.1:8080, not {address:?}")
                })?;
                config.bind(address)
            }
            "--sessions" => config.legacy_sessions(true),
            "--allow-origin" => config.allow_origin(value("https://app.example.com")?),
            "--allow-host" => config.allow_host(value("mcp.example.com")?),
            "--token-env" => config
                .bearer_tokens_from_env(&value("VARIABLE")?)
                .map_err(|e| e.to_string())?,
            "--token-file" => config
                .bearer_tokens_from_file(value("PATH")?)
                .map_err(|e| e.to_string())?,
            "--max-body" => config.max_body_bytes(number(&flag, &value("BYTES")?)?),
            "--request-timeout-ms" => {
                config.request_timeout(millis(&flag, &value("MILLISECONDS")?)?)
            }
            "--max-concurrent" => config.max_concurrent_requests(number(&flag, &value("N")?)?),
            "--shutdown-grace-ms" => config.shutdown_grace(millis(&flag, &value("MILLISECONDS")?)?),
            "--instance" => config.instance(value("NAME")?),
            other => {
                return Err(format!(
                    "unknown option {other:?}: without options the server speaks MCP on stdio; \
                     --http 127.0.0.1:PORT serves Streamable HTTP (see examples/src/cli.rs for \
                     the other options)"
                ));
            }
        };
    }
    Ok(if http {
        Transport::Http(Box::new(config))
    } else {
        Transport::Stdio
    })
}

fn number(flag: &str, value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| format!("{flag} takes a whole number, not {value:?}"))
}

fn millis(flag: &str, value: &str) -> Result<Duration, String> {
    number(flag, value).map(|ms| Duration::from_millis(u64::try_from(ms).unwrap_or(u64::MAX)))
}

/// The exit of a report binary whose `run` says whether its check passed: success for
/// `Ok(true)`, failure for `Ok(false)`, and for an error too, printed after the program's name.
/// Call [`quiet_on_closed_pipe`] first.
pub fn report_run(
    name: &str,
    run: impl FnOnce() -> Result<bool, Box<dyn std::error::Error>>,
) -> std::process::ExitCode {
    quiet_on_closed_pipe();
    match run() {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(error) => {
            eprintln!("{name}: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Makes the program stop quietly, with status 0, when its output is closed (`billing_demo |
/// head`): Rust ignores `SIGPIPE`, so `println!` to a closed pipe panics with "failed printing to
/// stdout: Broken pipe" and a backtrace. Any other panic is reported as before. Call it first in
/// `main`.
pub fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        report(info);
    }));
}

/// Logs fusion's per-call spans and events (feature `tracing`) on stderr when the environment
/// asks with `FUSION_LOG` (`info`, `debug`, `trace`, `warn` or `error`); stdout stays the
/// protocol's. Without `FUSION_LOG` nothing is installed and nothing is logged.
pub fn init_tracing() {
    let Ok(level) = std::env::var("FUSION_LOG") else {
        return;
    };
    let level = level
        .parse::<tracing_subscriber::filter::LevelFilter>()
        .unwrap_or(tracing_subscriber::filter::LevelFilter::INFO);
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_ansi(false)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn no_option_is_stdio_and_http_takes_an_address() {
        assert!(matches!(transport(args("")), Ok(Transport::Stdio)));
        let Ok(Transport::Http(config)) = transport(args("--http 127.0.0.1:0 --sessions")) else {
            panic!("--http selects HTTP");
        };
        assert!(config.uses_legacy_sessions());
        let error = transport(args("--http localhost"))
            .err()
            .unwrap_or_default();
        assert!(error.contains("such as 127.0.0.1:8080"), "{error}");
        let error = transport(args("--max-body")).err().unwrap_or_default();
        assert!(error.contains("--max-body BYTES"), "{error}");
        assert!(transport(args("--verbose")).is_err());
    }
}
