//! The stdio guard: a layer of fusion's own between the client's byte stream and rmcp.
//!
//! ```text
//! client ──lines──▶ LineReader ─▶ classify ──typed messages (ids made unique)──▶ channel ─▶ rmcp
//!                                     │ answer                                              │
//!                                     ▼                                                     ▼
//! client ◀──lines── one writer ◀──────┴────────── ids restored, written once ◀── channel ◀── rmcp
//! ```
//!
//! - Lines are read with a bounded length ([`MAX_LINE_BYTES`]): a longer line is skipped to
//!   its end without being kept, and answered -32600 with `"id": null`.
//! - [`classify`](super::classify) decides per line; what rmcp would drop, mishandle or die on
//!   is answered (or dropped) here, the rest reaches rmcp as the typed messages the guard read
//!   (a [`Transport`] of channels): each line is parsed once, and each answer written once.
//! - Every line to the client goes through one writer task, so the guard's answers and rmcp's
//!   never interleave.
//! - The server stops only at the end of the input (or a signal): then the requests in flight
//!   are answered before rmcp is told the input ended.

use std::io;

use ::rmcp::model::{ClientJsonRpcMessage, NumberOrString, ServerJsonRpcMessage};
use ::rmcp::service::{RoleServer, ServerInitializeError};
use ::rmcp::transport::Transport;
use ::rmcp::{ServerHandler, ServiceExt};
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use super::ServeError;
use super::classify::{Gate, Verdict, classify, too_long};
use super::ids::InFlight;

/// The longest line (one JSON-RPC message) the stdio server reads: 16 MiB. A longer line is
/// skipped without being kept in memory and answered with -32600 Invalid Request and
/// `"id": null`.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Messages queued for rmcp (and from it) before the other side waits.
const QUEUED_MESSAGES: usize = 64;
/// Lines queued for the client before the guard and rmcp wait for the client to read.
const QUEUED_LINES: usize = 64;

/// rmcp's end of the guard: the typed messages the guard read, and rmcp's typed answers.
struct Channels {
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    outgoing: mpsc::Sender<ServerJsonRpcMessage>,
}

impl Transport<RoleServer> for Channels {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let outgoing = self.outgoing.clone();
        async move {
            outgoing
                .send(item)
                .await
                .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<ClientJsonRpcMessage>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.incoming.close();
        Ok(())
    }
}

/// One read from a [`LineReader`].
#[derive(Debug, PartialEq)]
enum Line {
    /// A whole line, in the reader's buffer.
    Complete,
    /// A line longer than the limit, skipped to its end.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads lines of at most `max` bytes, skipping (not keeping) the rest of a longer one.
struct LineReader<R> {
    input: R,
    line: Vec<u8>,
    max: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    fn new(input: R, max: usize) -> Self {
        LineReader {
            input,
            line: Vec::new(),
            max,
        }
    }

    /// The next line (without its `\n`) is in `self.line` when this returns [`Line::Complete`].
    /// A last line without `\n` counts as a line.
    async fn next(&mut self) -> io::Result<Line> {
        self.line.clear();
        let mut too_long = false;
        loop {
            let available = self.input.fill_buf().await?;
            if available.is_empty() {
                return Ok(match (too_long, self.line.is_empty()) {
                    (true, _) => Line::TooLong,
                    (false, true) => Line::End,
                    (false, false) => Line::Complete,
                });
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            if !too_long {
                if self.line.len() + chunk.len() > self.max {
                    too_long = true;
                    // Give the memory back: the rest of this line is only skipped.
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(chunk);
                }
            }
            let consumed = newline.map_or(available.len(), |at| at + 1);
            self.input.consume(consumed);
            if newline.is_some() {
                return Ok(if too_long {
                    Line::TooLong
                } else {
                    Line::Complete
                });
            }
        }
    }
}

/// Serves `server` over the byte streams `input` and `output` (newline-delimited JSON-RPC, as
/// on stdio) through the stdio guard, until `input` ends and every request read has been
/// answered. Lines longer than `max_line_bytes` are answered -32600.
///
/// This is what [`serve_stdio`](super::serve_stdio) runs on stdin and stdout; tests and
/// embedders can run it on any streams (a pipe, a socket, `tokio::io::duplex`).
pub async fn serve_io<S, R, W>(
    server: S,
    input: R,
    output: W,
    max_line_bytes: usize,
) -> Result<(), ServeError>
where
    S: ServerHandler,
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut gate = Gate::new(server.supported_protocol_versions().into_owned());
    let in_flight = InFlight::default();
    let (to_rmcp, incoming) = mpsc::channel(QUEUED_MESSAGES);
    let (outgoing, from_rmcp) = mpsc::channel(QUEUED_MESSAGES);
    let rmcp_end = Channels { incoming, outgoing };
    let (lines, queued) = mpsc::channel::<String>(QUEUED_LINES);

    let reading = read_client(
        LineReader::new(BufReader::new(input), max_line_bytes),
        &mut gate,
        &in_flight,
        to_rmcp,
        lines.clone(),
    );
    let relaying = relay_rmcp(from_rmcp, &in_flight, lines);
    let writing = write_client(output, queued);
    let serving = async {
        let mut running = std::pin::pin!(run_rmcp(server, rmcp_end));
        tokio::select! {
            // rmcp stopped on its own: the client's remaining input is not read.
            outcome = &mut running => outcome,
            read = reading => {
                let ended = read.is_ok();
                match running.await {
                    // The input ended before a session began: a normal end, not a failure.
                    Err(RmcpStop::Initialize(error))
                        if ended && matches!(*error, ServerInitializeError::ConnectionClosed(_)) =>
                    {
                        Ok(())
                    }
                    outcome => outcome,
                }
            }
        }
    };
    let (outcome, (), written) = tokio::join!(serving, relaying, writing);
    outcome.map_err(RmcpStop::into_serve_error)?;
    // A client that stopped reading is gone: not a failure of the server.
    match written {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(ServeError(Box::new(error))),
        _ => Ok(()),
    }
}

/// Why rmcp stopped with an error.
enum RmcpStop {
    Initialize(Box<ServerInitializeError>),
    Running(tokio::task::JoinError),
}

impl RmcpStop {
    fn into_serve_error(self) -> ServeError {
        match self {
            RmcpStop::Initialize(error) => ServeError(error),
            RmcpStop::Running(error) => ServeError(Box::new(error)),
        }
    }
}

async fn run_rmcp<S: ServerHandler>(server: S, transport: Channels) -> Result<(), RmcpStop> {
    let running = server
        .serve(transport)
        .await
        .map_err(|error| RmcpStop::Initialize(Box::new(error)))?;
    running.waiting().await.map_err(RmcpStop::Running)?;
    Ok(())
}

/// Reads the client's lines until the input ends, then waits for the requests in flight to
/// be answered and closes rmcp's input.
async fn read_client<R>(
    mut reader: LineReader<R>,
    gate: &mut Gate,
    in_flight: &InFlight,
    to_rmcp: mpsc::Sender<ClientJsonRpcMessage>,
    lines: mpsc::Sender<String>,
) -> io::Result<()>
where
    R: AsyncBufRead + Unpin,
{
    loop {
        let verdict = match reader.next().await? {
            Line::End => break,
            Line::TooLong => too_long(reader.max),
            Line::Complete => classify(&reader.line, gate, in_flight),
        };
        match verdict {
            Verdict::Forward(messages) => {
                for message in messages {
                    if to_rmcp.send(message).await.is_err() {
                        // rmcp stopped: what it was sent is answered, the rest is not read.
                        return Err(io::ErrorKind::BrokenPipe.into());
                    }
                }
            }
            Verdict::Answer(answer) => {
                if lines.send(answer).await.is_err() {
                    // The writer stopped: the client is gone.
                    return Err(io::ErrorKind::BrokenPipe.into());
                }
            }
            Verdict::Ignore => {}
        }
    }
    in_flight.settled().await;
    // Dropping the sender ends rmcp's input.
    drop(to_rmcp);
    Ok(())
}

/// Passes rmcp's messages to the writer, each answer with the caller's id back on it, each
/// written to text once.
async fn relay_rmcp(
    mut from_rmcp: mpsc::Receiver<ServerJsonRpcMessage>,
    in_flight: &InFlight,
    lines: mpsc::Sender<String>,
) {
    while let Some(message) = from_rmcp.recv().await {
        if let Some(line) = restore_id(message, in_flight)
            && lines.send(line).await.is_err()
        {
            return;
        }
    }
}

/// rmcp's message for the client, as a line: an answer gets the caller's id back (and is
/// dropped when its request was cancelled); an error without an `id` gets `"id": null`;
/// anything else (the server's own requests and notifications) is unchanged.
fn restore_id(mut message: ServerJsonRpcMessage, in_flight: &InFlight) -> Option<String> {
    let internal = match &message {
        ServerJsonRpcMessage::Response(response) => Some(&response.id),
        ServerJsonRpcMessage::Error(error) => error.id.as_ref(),
        _ => None,
    };
    let restored = match internal {
        Some(NumberOrString::Number(internal)) => Some(caller_id(in_flight.restore(*internal)?)),
        _ => None,
    };
    match (&mut message, restored) {
        (ServerJsonRpcMessage::Response(response), Some(Some(caller))) => response.id = caller,
        (ServerJsonRpcMessage::Error(error), Some(Some(caller))) => error.id = Some(caller),
        // An error without an id of the caller's (rmcp could not read one).
        (ServerJsonRpcMessage::Error(error), _) => {
            error.id = None;
            let mut value = serde_json::to_value(&message).ok()?;
            if let Value::Object(object) = &mut value {
                let rest = std::mem::take(object);
                object.insert("jsonrpc".to_owned(), Value::from("2.0"));
                object.insert("id".to_owned(), Value::Null);
                object.extend(rest.into_iter().filter(|(key, _)| key != "jsonrpc"));
            }
            return Some(value.to_string());
        }
        _ => {}
    }
    serde_json::to_string(&message).ok()
}

/// The caller's id (a string or an integer) as rmcp's id; `None` for anything else.
fn caller_id(caller: Value) -> Option<NumberOrString> {
    match caller {
        Value::String(id) => Some(NumberOrString::String(id.into())),
        Value::Number(id) => id.as_i64().map(NumberOrString::Number),
        _ => None,
    }
}

/// Writes each queued line to the client, in order, until every sender is gone.
async fn write_client<W: AsyncWrite + Unpin>(
    mut output: W,
    mut queued: mpsc::Receiver<String>,
) -> io::Result<()> {
    while let Some(line) = queued.recv().await {
        output.write_all(line.as_bytes()).await?;
        output.write_all(b"\n").await?;
        if queued.is_empty() {
            output.flush().await?;
        }
    }
    output.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    async fn lines_of(input: &[u8], max: usize) -> Vec<(Line, Vec<u8>)> {
        let mut reader = LineReader::new(BufReader::with_capacity(4, input), max);
        let mut out = Vec::new();
        loop {
            let line = reader.next().await.unwrap_or(Line::End);
            if line == Line::End {
                return out;
            }
            out.push((line, reader.line.clone()));
        }
    }

    #[tokio::test]
    async fn lines_longer_than_the_limit_are_skipped_and_reported() {
        let lines = lines_of(b"short\n0123456789ab\nok\nlast", 10).await;
        assert_eq!(
            lines,
            vec![
                (Line::Complete, b"short".to_vec()),
                (Line::TooLong, Vec::new()),
                (Line::Complete, b"ok".to_vec()),
                (Line::Complete, b"last".to_vec()),
            ]
        );
        assert_eq!(
            lines_of(b"0123456789abc", 10).await,
            vec![(Line::TooLong, Vec::new())]
        );
    }

    #[test]
    fn serving_is_a_send_future() {
        fn send<T: Send>(_: &T) {}
        let server = super::super::FusionServer::new("t", crate::ToolSet::new());
        let future = serve_io(server, tokio::io::empty(), tokio::io::sink(), 10);
        send(&future);
    }

    #[tokio::test]
    async fn an_empty_input_ends_the_session_cleanly() {
        let server = super::super::FusionServer::new("t", crate::ToolSet::new());
        let mut output = Vec::new();
        let outcome = Box::pin(serve_io(server, tokio::io::empty(), &mut output, 10)).await;
        assert!(outcome.is_ok(), "{outcome:?}");
        assert!(output.is_empty());
    }

    /// rmcp's message for `line`.
    fn typed(line: &str) -> ServerJsonRpcMessage {
        serde_json::from_str(line).unwrap_or_else(|error| panic!("{line}: {error}"))
    }

    #[test]
    fn answers_get_the_callers_id_back_and_cancelled_ones_are_dropped() {
        let table = InFlight::default();
        let internal = table.reserve();
        table.admit(internal, json!("abc"));
        let line = format!(r#"{{"jsonrpc":"2.0","id":{internal},"result":{{}}}}"#);
        assert_eq!(
            restore_id(typed(&line), &table).as_deref(),
            Some(r#"{"jsonrpc":"2.0","id":"abc","result":{}}"#)
        );
        assert_eq!(restore_id(typed(&line), &table), None);
        let internal = table.reserve();
        table.admit(internal, json!(7));
        let line =
            format!(r#"{{"jsonrpc":"2.0","id":{internal},"error":{{"code":1,"message":"m"}}}}"#);
        assert_eq!(
            restore_id(typed(&line), &table).as_deref(),
            Some(r#"{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"m"}}"#)
        );
        assert_eq!(
            restore_id(
                typed(r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"}}"#),
                &table
            )
            .as_deref(),
            Some(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}"#)
        );
        let request = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(restore_id(typed(request), &table).as_deref(), Some(request));
    }
}
