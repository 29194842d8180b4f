//! Feature `tracing`: one span per call, `fusion.call`, with the tool, the action, the outcome
//! (`ok` or the error code), the duration, the bytes and estimated tokens of the answer, and
//! `kept` / `total` when a collection was cut (to its agent limit or a response budget). Without
//! the feature this module is empty and a call pays nothing.

#![cfg(feature = "tracing")]

use std::time::Instant;

use crate::response::ToolResponse;

/// The span of one call, open while its handler runs (the handler's own events nest in it).
pub(crate) struct CallSpan {
    span: tracing::Span,
    /// `None` when no subscriber wants the span: then nothing is measured or counted.
    started: Option<Instant>,
}

impl CallSpan {
    /// Opens the span of a call of `tool`.
    pub(crate) fn open(tool: &str) -> Self {
        let span = tracing::info_span!(
            "fusion.call",
            tool,
            action = tracing::field::Empty,
            outcome = tracing::field::Empty,
            duration_us = tracing::field::Empty,
            bytes = tracing::field::Empty,
            tokens = tracing::field::Empty,
            kept = tracing::field::Empty,
            total = tracing::field::Empty,
        );
        let started = (!span.is_disabled()).then(Instant::now);
        CallSpan { span, started }
    }

    /// The span, to enter (synchronous handlers) or instrument a future with.
    pub(crate) fn span(&self) -> &tracing::Span {
        &self.span
    }

    /// Records the action routing found.
    pub(crate) fn action(&self, action: Option<&str>) {
        if let Some(action) = action.filter(|_| self.started.is_some()) {
            self.span.record("action", action);
        }
    }

    /// Records the answer and emits the call's event (`fusion.call` at `INFO`, `WARN` for an
    /// error) inside the span.
    pub(crate) fn finish(self, response: &ToolResponse) {
        let Some(started) = self.started else {
            return;
        };
        let duration_us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        let bytes: usize = response.blocks.iter().map(String::len).sum();
        let tokens: usize = response
            .blocks
            .iter()
            .map(|b| crate::encode::tokens::estimate(b))
            .sum();
        let outcome = outcome(response);
        let span = &self.span;
        span.record("outcome", outcome);
        span.record("duration_us", duration_us);
        span.record("bytes", bytes);
        span.record("tokens", tokens);
        let cut = cut(response);
        if let Some((kept, total)) = cut {
            span.record("kept", kept);
            span.record("total", total);
        }
        let _entered = span.enter();
        if response.is_error == Some(true) {
            tracing::warn!(outcome, duration_us, bytes, tokens, "tool call failed");
        } else {
            tracing::info!(outcome, duration_us, bytes, tokens, "tool call");
        }
    }
}

/// `ok`, or the code of the `<tool_error>` (`VALIDATION_ERROR` for a `<validation_error>`).
fn outcome(response: &ToolResponse) -> &str {
    let first = response.blocks.first().map_or("", String::as_str);
    if let Some(rest) = first.strip_prefix("<tool_error code=\"") {
        return rest.split('"').next().unwrap_or("ERROR");
    }
    if first.starts_with("<validation_error") {
        return "VALIDATION_ERROR";
    }
    "ok"
}

/// `(kept, total)` from a cut collection's summary: `N of M shown` (a budget, wire format §17.3)
/// or `N shown, H hidden` (the agent limit, wire format §4.5).
fn cut(response: &ToolResponse) -> Option<(usize, usize)> {
    response.truncation_summary().and_then(|rest| {
        let mut words = rest.split([' ', ',']).filter(|w| !w.is_empty());
        let kept: usize = words.next()?.parse().ok()?;
        match words.next()? {
            "of" => Some((kept, words.next()?.parse().ok()?)),
            "shown" => Some((kept, kept + words.next()?.parse::<usize>().ok()?)),
            _ => None,
        }
    })
}
