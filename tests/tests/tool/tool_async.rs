//! Asynchronous tool handlers: `ToolSet::tool_async`, `ToolSet::call_async` and the blocking
//! `ToolSet::call`, with failures and panics anywhere in the future ending as wire format §13.7's
//! `INTERNAL_ERROR` (V67), exactly as for synchronous handlers. No async runtime is used: the
//! futures below are woken by themselves or by another thread, and the test executor is a
//! dozen lines of `std`.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};

use fusion_runtime::{Call, Tool, ToolSet};
use fusion_runtime::{Json, Presenter, ToolError, ToolResponse};
use serde::Deserialize;
use serde_json::json;

/// The V67 envelope for `reference`.
fn internal_error(reference: &str) -> String {
    format!(
        "<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n<message>[{reference}] The action failed with an internal error.</message>\n<recovery>This may be a transient failure. Retry the call once; if it fails again, tell the user the action is unavailable.</recovery>\n</tool_error>"
    )
}

/// Pending once, having asked to be polled again at once.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// Pending until another thread has done its work and woken the task.
struct OtherThread {
    done: Arc<AtomicBool>,
    started: bool,
}

fn other_thread() -> OtherThread {
    OtherThread {
        done: Arc::new(AtomicBool::new(false)),
        started: false,
    }
}

impl Future for OtherThread {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.done.load(Ordering::SeqCst) {
            return Poll::Ready(());
        }
        if !self.started {
            self.started = true;
            let done = self.done.clone();
            let waker = cx.waker().clone();
            std::thread::spawn(move || {
                done.store(true, Ordering::SeqCst);
                waker.wake();
            });
        }
        Poll::Pending
    }
}

/// A minimal executor of the test's own, to show `call_async` needs none in particular.
fn run<F: Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        std::thread::park();
    }
}

#[derive(Clone, Presenter)]
#[rule("amount_cents is in CENTS.")]
struct Invoice {
    id: String,
    amount_cents: u64,
    #[redact]
    email: String,
}

/// One action per way an asynchronous handler can end.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "jobs", select)]
enum Jobs {
    #[fusion(returns = Invoice, structured)]
    Get {
        id: String,
    },
    Fail,
    PanicLater,
    PanicNow,
    Missing,
    Warn,
}

/// A value whose `Serialize` impl panics: the panic happens while the output is converted.
struct Explosive;

impl serde::Serialize for Explosive {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("serialize exploded with a secret")
    }
}

#[derive(Debug)]
struct StoreDown;

impl std::fmt::Display for StoreDown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the store at 10.0.0.7 is down")
    }
}

impl std::error::Error for StoreDown {}

type Answer = Result<ToolResponse, Box<dyn std::error::Error + Send + Sync>>;

/// What the handler returns before it is awaited: a panic here is a panic of the handler call.
fn jobs(action: Jobs, call: Call) -> Pin<Box<dyn Future<Output = Answer> + Send>> {
    if matches!(action, Jobs::PanicNow) {
        panic!("panicked before any future, with a secret");
    }
    Box::pin(async move {
        YieldOnce(false).await;
        other_thread().await;
        match action {
            Jobs::Get { id } => {
                let invoice = Invoice {
                    id,
                    amount_cents: 4500,
                    email: "ada@example.com".into(),
                };
                Ok(call.present(&invoice).build()?)
            }
            Jobs::Fail => Err(StoreDown.into()),
            Jobs::PanicLater => {
                YieldOnce(false).await;
                panic!("panicked after awaiting, with a secret")
            }
            Jobs::Missing => Err(ToolError::not_found("No such job.").into()),
            Jobs::Warn => Ok(ToolError::warning("SLOW", "The queue is slow.").into_response()),
            Jobs::PanicNow => unreachable!("handled before the future"),
        }
    })
}

/// The tool set, and what its reporter received.
fn tools() -> (ToolSet, Arc<Mutex<Vec<String>>>) {
    let reported = Arc::new(Mutex::new(Vec::new()));
    let sink = reported.clone();
    let tools = ToolSet::new()
        .on_internal_error(move |failure| {
            sink.lock()
                .unwrap()
                .push(format!("{} (panic: {})", failure, failure.is_panic()));
        })
        .tool_async(jobs)
        .unwrap();
    (tools, reported)
}

#[test]
fn an_async_handler_is_awaited_and_presented_with_selection_and_structured_content() {
    let (tools, reported) = tools();
    let arguments = json!({"action": "get", "id": "INV-1", "_select": ["id", "email"]});
    for response in [
        tools.call("jobs", Some(arguments.clone())),
        run(tools.call_async("jobs", Some(arguments.clone()))),
    ] {
        assert_eq!(
            response.blocks(),
            [
                "{\n  \"id\": \"INV-1\",\n  \"email\": \"[REDACTED]\"\n}",
                "<domain_rules>\n- amount_cents is in CENTS.\n</domain_rules>",
            ]
        );
        assert_eq!(
            response.structured_content(),
            Some(&json!({"id": "INV-1", "email": "[REDACTED]"}))
        );
        assert_eq!(response.is_error(), None);
    }
    assert!(reported.lock().unwrap().is_empty());
}

#[test]
fn v67_an_error_of_an_async_handler_is_an_internal_error() {
    let (tools, reported) = tools();
    let response = tools.call("jobs", Some(json!({"action": "fail"})));
    assert_eq!(response.blocks(), [internal_error("jobs/fail")]);
    assert_eq!(response.is_error(), Some(true));
    assert_eq!(
        *reported.lock().unwrap(),
        [
            "[jobs/fail] the handler failed: the store at 10.0.0.7 is down; the call answers with INTERNAL_ERROR (return a `ToolError` to show the agent an expected failure) (panic: false)"
        ]
    );
}

#[test]
fn v67_panics_anywhere_in_an_async_handler_are_internal_errors() {
    let (tools, reported) = tools();
    for action in ["panic_later", "panic_now"] {
        let response = run(tools.call_async("jobs", Some(json!({"action": action}))));
        assert_eq!(
            response.blocks(),
            [internal_error(&format!("jobs/{action}"))]
        );
        assert!(!response.to_json().contains("secret"));
    }
    assert_eq!(
        *reported.lock().unwrap(),
        [
            "[jobs/panic_later] the handler panicked: panicked after awaiting, with a secret (panic: true)",
            "[jobs/panic_now] the handler panicked: panicked before any future, with a secret (panic: true)",
        ]
    );
    // The set still answers after its handlers panicked.
    let again = tools.call("jobs", Some(json!({"action": "get", "id": "INV-2"})));
    assert_eq!(again.structured_content().unwrap()["id"], "INV-2");
}

#[test]
fn tool_errors_of_an_async_handler_keep_their_envelope() {
    let (tools, reported) = tools();
    let missing = tools.call("jobs", Some(json!({"action": "missing"})));
    assert_eq!(
        missing.blocks(),
        [
            "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>No such job.</message>\n</tool_error>"
        ]
    );
    assert_eq!(missing.is_error(), Some(true));
    assert_eq!(missing.structured_content(), None);
    let warn = tools.call("jobs", Some(json!({"action": "warn"})));
    assert_eq!(warn.is_error(), Some(false));
    assert!(reported.lock().unwrap().is_empty());
}

/// A tool whose future's output panics while it is turned into a response.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct Explode {}

#[test]
fn v67_a_panic_while_the_output_is_converted_is_an_internal_error() {
    let reported = Arc::new(Mutex::new(Vec::new()));
    let sink = reported.clone();
    let tools = ToolSet::new()
        .on_internal_error(move |failure| sink.lock().unwrap().push(failure.to_string()))
        .tool_async(|_: Explode, _: Call| async {
            YieldOnce(false).await;
            Json(Explosive)
        })
        .unwrap();
    let response = run(tools.call_async("explode", None));
    assert_eq!(response.blocks(), [internal_error("explode")]);
    assert_eq!(
        *reported.lock().unwrap(),
        ["[explode] the handler panicked: serialize exploded with a secret"]
    );
}

/// Counts calls of its handler.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct Count {
    #[allow(dead_code, reason = "read by serde only")]
    n: u8,
}

#[test]
fn invalid_arguments_never_reach_an_async_handler() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let tools = ToolSet::new()
        .tool_async(move |_: Count, _: Call| {
            seen.fetch_add(1, Ordering::SeqCst);
            async { "counted" }
        })
        .unwrap();
    let response = run(tools.call_async("count", Some(json!({"n": 300, "m": 1}))));
    assert_eq!(
        response.blocks(),
        [
            "<validation_error action=\"count\">\n<field name=\"n\">Out of range. You sent: 300. Must be between 0 and 255.</field>\n<field name=\"m\">Unknown field. Valid fields: 'n'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
        ]
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert_eq!(
        tools.call("count", Some(json!({"n": 3}))).blocks(),
        ["counted"]
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let unknown = run(tools.call_async("counter", None));
    assert!(unknown.blocks()[0].starts_with("<tool_error code=\"UNKNOWN_TOOL\""));
}

/// A synchronous tool next to the asynchronous one.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct Echo {
    text: String,
}

#[test]
fn one_set_mixes_sync_and_async_tools_and_its_future_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let (tools, _) = tools();
    let tools = tools.tool(|input: Echo, _: &Call| input.text).unwrap();
    let future = tools.call_async("echo", Some(json!({"text": "hi"})));
    assert_send(&future);
    assert_eq!(run(future).blocks(), ["hi"]);
    // The sync path of a mixed set is unchanged.
    assert_eq!(
        tools.call("echo", Some(json!({"text": "ho"}))).blocks(),
        ["ho"]
    );
    assert_eq!(
        tools
            .definitions()
            .map(fusion_runtime::tool::ToolDefinition::name)
            .collect::<Vec<_>>(),
        ["jobs", "echo"]
    );
}

#[test]
fn an_async_future_can_be_polled_from_another_thread() {
    // What a work-stealing runtime does: start the call here, finish it on a worker.
    let (tools, _) = tools();
    let tools = Arc::new(tools);
    let shared = tools.clone();
    let response = std::thread::spawn(move || {
        run(shared.call_async("jobs", Some(json!({"action": "get", "id": "INV-9"}))))
    })
    .join()
    .unwrap();
    assert_eq!(response.structured_content().unwrap()["id"], "INV-9");
}
