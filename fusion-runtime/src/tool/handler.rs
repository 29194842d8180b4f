//! The shapes a handler may have: with or without the tool set's shared state, synchronous
//! ([`Handler`]) or asynchronous ([`AsyncHandler`]).
//!
//! One [`ToolSet::tool`](crate::ToolSet::tool) takes both shapes, as axum's routes take handlers
//! of several arities: a closure or function `Fn(T, &Call) -> R` ignores the state, and
//! `Fn(&S, T, &Call) -> R` receives it (so a method `fn answer(&self, input: T, call: &Call)` of
//! the state type is a handler as it stands). The `Marker` parameter only tells the two impls
//! apart; callers never name it.
//!
//! The shape and the result are two bounds, not one: the impls of [`Handler`] ask of `R` only
//! that it is not a future (`Unpin`), and the tool set asks `R: ToolResult`
//! ([`handler_result`](super::handler_result)) once the shape has chosen the impl. A handler of
//! the right shape that returns something else (a serializable struct not wrapped in `Json`) is
//! then one error that names the returned type and says what to return, instead of "not a
//! handler" with no impl left to blame.

use std::future::Future;
use std::sync::Arc;

use super::call::Call;

/// The markers that tell the handler shapes apart (never named by callers).
pub mod marker {
    /// A handler that takes no state: `Fn(T, &Call)` or `Fn(T, Call)`.
    #[derive(Debug)]
    pub struct Stateless;

    /// A handler that takes the shared state first: `Fn(&S, T, &Call)` or `Fn(Arc<S>, T, Call)`.
    #[derive(Debug)]
    pub struct WithState;
}

/// A synchronous handler of the tool `T` in a [`ToolSet<S>`](crate::ToolSet): `Fn(T, &Call) -> R`,
/// or `Fn(&S, T, &Call) -> R` to receive the set's shared state.
///
/// This trait is the shape; the tool set asks the result `R` to be a
/// [`ToolResult`](super::ToolResult) in a bound of its own, so a handler that returns, say, a
/// struct that is only `Serialize` is told that `R` is not a tool result and how to wrap it. `R`
/// is `Unpin`, as every tool result is, which no `async` block's future is: an `async` closure is
/// not a synchronous handler (it goes to [`ToolSet::tool_async`](crate::ToolSet::tool_async)).
///
/// ```
/// use fusion_runtime::{Call, Json, Tool, ToolSet};
///
/// /// Count the calls
/// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
/// struct Hit {}
///
/// #[derive(Default)]
/// struct Counter(std::sync::atomic::AtomicU64);
///
/// impl Counter {
///     fn hit(&self, _: Hit, _: &Call) -> Json<u64> {
///         Json(self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1)
///     }
/// }
///
/// let tools = ToolSet::with_state(Counter::default()).tool(Counter::hit)?;
/// tools.call("hit", None);
/// assert_eq!(tools.call("hit", None).blocks(), ["2"]);
/// # Ok::<(), fusion_runtime::tool::DefinitionError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "this is not a synchronous tool handler of a `ToolSet<{S}>`",
    label = "not a tool handler",
    note = "a handler is `|input: MyTool, call: &Call| ...`, or `|state: &{S}, input: MyTool, call: &Call| ...` to use the set's shared state, with the argument types written out (a method `fn(&self, input: MyTool, call: &Call)` of the state type is one too)",
    note = "it returns a tool result: a `ToolResponse`, a `ToolError`, `()`, a text, a number, `Json(value)`, `Structured(value)`, a presentation (`call.present(&model).build()`), or a `Result` of one; and it is `Send + Sync + 'static` (`move` what it captures)",
    note = "an `async` handler goes to `tool_async`"
)]
pub trait Handler<T, S, Marker>: Send + Sync + 'static {
    /// What the handler returns: a [`ToolResult`](super::ToolResult), which the tool set asks
    /// of it (not this trait, so that a wrong return type is an error about the type).
    type Output;

    /// Runs the handler.
    fn handle(&self, state: &S, input: T, call: &Call) -> Self::Output;
}

// `R: Unpin` turns futures away: the future of an `async` block or `async fn` is never `Unpin`,
// and a tool result is (a response, a text, a number, `Json` of a plain struct, a
// presentation). So an `async` closure given to `tool` has no impl and stays "not a synchronous
// tool handler", whose note sends it to `tool_async`, instead of "not a tool result", whose
// headline would say to wrap the future in `Json`.
impl<T, S, F, R> Handler<T, S, marker::Stateless> for F
where
    F: Fn(T, &Call) -> R + Send + Sync + 'static,
    R: Unpin,
{
    type Output = R;

    fn handle(&self, _: &S, input: T, call: &Call) -> R {
        self(input, call)
    }
}

impl<T, S, F, R> Handler<T, S, marker::WithState> for F
where
    F: Fn(&S, T, &Call) -> R + Send + Sync + 'static,
    R: Unpin,
{
    type Output = R;

    fn handle(&self, state: &S, input: T, call: &Call) -> R {
        self(state, input, call)
    }
}

/// An asynchronous handler of the tool `T` in a [`ToolSet<S>`](crate::ToolSet):
/// `Fn(T, Call) -> impl Future`, or `Fn(Arc<S>, T, Call) -> impl Future` to receive the set's
/// shared state. The state comes as an `Arc` because the future owns what it uses (it is
/// `Send + 'static`); a method `async fn answer(self: Arc<Self>, input: T, call: Call)` of the
/// state type is a handler as it stands. As for [`Handler`], the tool set asks the future's
/// output to be a [`ToolResult`](super::ToolResult) in a bound of its own.
#[diagnostic::on_unimplemented(
    message = "this is not an asynchronous tool handler of a `ToolSet<{S}>`",
    label = "not an asynchronous tool handler",
    note = "an asynchronous handler is `|input: MyTool, call: Call| async move {{ ... }}`, or `|state: Arc<{S}>, input: MyTool, call: Call| async move {{ ... }}` to use the set's shared state, with the argument types written out (a method `async fn(self: Arc<Self>, input: MyTool, call: Call)` of the state type is one too)",
    note = "its future is `Send + 'static` (it owns what it uses) and its output is a tool result: a `ToolResponse`, a `ToolError`, `()`, a text, a number, `Json(value)`, `Structured(value)`, or a `Result` of one",
    note = "a synchronous handler goes to `tool`"
)]
pub trait AsyncHandler<T, S, Marker>: Send + Sync + 'static {
    /// The future the handler returns; its output is a [`ToolResult`](super::ToolResult), which the tool set asks
    /// of it (as for [`Handler::Output`]).
    type Future: Future + Send + 'static;

    /// Starts the handler.
    fn start(&self, state: &Arc<S>, input: T, call: Call) -> Self::Future;
}

impl<T, S, F, Fut> AsyncHandler<T, S, marker::Stateless> for F
where
    F: Fn(T, Call) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
{
    type Future = Fut;

    fn start(&self, _: &Arc<S>, input: T, call: Call) -> Fut {
        self(input, call)
    }
}

impl<T, S, F, Fut> AsyncHandler<T, S, marker::WithState> for F
where
    F: Fn(Arc<S>, T, Call) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
{
    type Future = Fut;

    fn start(&self, state: &Arc<S>, input: T, call: Call) -> Fut {
        self(Arc::clone(state), input, call)
    }
}
