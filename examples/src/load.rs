//! What the HTTP load benches share (`http_load`, `http_cpu`): a server process started on a
//! free loopback port, a keep-alive HTTP/1.1 client connection, and the server's resource use
//! read from `/proc`.

use std::process::{Child, Command, Stdio};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A server process, killed when dropped.
pub struct ServerProcess(pub Child);

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl ServerProcess {
    /// Starts the binary `name` (next to the running one) with `args`, and reads the address it
    /// serves at from its stderr (the first line `... at http://HOST:PORT/mcp ...`).
    pub fn start(name: &str, args: &[&str]) -> Result<(Self, String), Box<dyn std::error::Error>> {
        let binary = std::env::current_exe()?.with_file_name(name);
        Self::start_program(&binary, &[], args)
    }

    /// Starts `program` with `before`, then `args` (`valgrind` with its options before a
    /// server's path and arguments, say), as [`ServerProcess::start`] does.
    pub fn start_program(
        program: &std::path::Path,
        before: &[&std::ffi::OsStr],
        args: &[&str],
    ) -> Result<(Self, String), Box<dyn std::error::Error>> {
        let name = program.display().to_string();
        let mut child = Command::new(program)
            .args(before)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e} (build it first)"))?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let server = ServerProcess(child);
        let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
        let url = loop {
            let line = lines.next().ok_or_else(|| format!("{name} exited"))??;
            if let Some(url) = line
                .split(" at http://")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
            {
                break url.to_owned();
            }
        };
        let address = url.trim_end_matches("/mcp").to_owned();
        // Drain the rest of stderr so the server never blocks on it.
        std::thread::spawn(move || lines.for_each(drop));
        Ok((server, address))
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

/// `VmRSS` of `pid`, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The CPU time all threads of `pid` have run so far, in nanoseconds (the first field of each
/// thread's `schedstat`: nanosecond resolution, unlike the 10 ms ticks of `stat`).
pub fn cpu_ns(pid: u32) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| std::fs::read_to_string(task.path().join("schedstat")).ok())
        .filter_map(|stat| stat.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// One keep-alive connection: sends a request, reads one response (a JSON body with a
/// `Content-Length`).
pub struct Connection {
    stream: BufReader<TcpStream>,
    head: String,
}

impl Connection {
    /// A connection to `address` (`host:port`) for POSTs to `/mcp`.
    pub async fn open(address: &str) -> std::io::Result<Connection> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n"
        );
        Ok(Connection {
            stream: BufReader::new(stream),
            head,
        })
    }

    /// Posts `body` and returns the answer's body, as sent.
    pub async fn call_raw(&mut self, body: &str) -> Result<Vec<u8>, String> {
        let request = format!("{}Content-Length: {}\r\n\r\n{body}", self.head, body.len());
        let io = |e: std::io::Error| e.to_string();
        self.stream
            .get_mut()
            .write_all(request.as_bytes())
            .await
            .map_err(io)?;
        let mut line = String::new();
        self.stream.read_line(&mut line).await.map_err(io)?;
        if !line.starts_with("HTTP/1.1 200") {
            return Err(format!("status line {line:?}"));
        }
        let mut length = None;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await.map_err(io)?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let length = length.ok_or("no Content-Length (an SSE answer?)")?;
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).await.map_err(io)?;
        Ok(body)
    }

    /// Posts `body` and returns the answer as JSON.
    pub async fn call(&mut self, body: &str) -> Result<serde_json::Value, String> {
        let body = self.call_raw(body).await?;
        serde_json::from_slice(&body).map_err(|e| e.to_string())
    }
}
