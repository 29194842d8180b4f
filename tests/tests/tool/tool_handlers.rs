//! Handlers with the tool set's shared state, structured output taken from the handler's return
//! type (`Structured<T>`), recoveries that name another tool (wire format §13.1, V140–V142), and
//! the check of the presented model against `returns` (wire format §13.7, V143).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use fusion_runtime::{Call, Structured, Tool, ToolError, ToolSet};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The state every handler of these tests shares: a counter of calls.
#[derive(Default)]
struct Counter {
    calls: AtomicU64,
}

impl Counter {
    fn bump(&self) -> u64 {
        self.calls.fetch_add(1, Ordering::SeqCst) + 1
    }

    fn hit(&self, _: Hit, _: &Call) -> String {
        format!("call {}", self.bump())
    }

    async fn later(self: Arc<Self>, _: Later, _: Call) -> String {
        std::future::ready(()).await;
        format!("later {}", self.bump())
    }

    fn stats(&self, _: Stats, _: &Call) -> Structured<Totals> {
        Structured(Totals {
            calls: self.calls.load(Ordering::SeqCst),
        })
    }
}

/// Count a call
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct Hit {}

/// Count a call, asynchronously
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct Later {}

/// Say hello
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct Hello {}

/// The calls so far
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(read_only)]
struct Stats {}

/// The calls so far, with the output declared on the tool too
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(output = Totals)]
struct DeclaredStats {}

/// The calls so far, declaring another output than the handler returns
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(output = Other)]
struct MismatchedStats {}

#[derive(Serialize, schemars::JsonSchema)]
struct Totals {
    calls: u64,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Other {
    name: String,
}

#[test]
fn every_handler_shares_one_state_sync_async_and_stateless_alike() {
    let tools = ToolSet::with_state(Counter::default())
        .tool(Counter::hit)
        .unwrap()
        .tool_async(Counter::later)
        .unwrap()
        .tool(|counter: &Counter, _: Stats, _: &Call| counter.bump().to_string())
        .unwrap()
        .tool(|_: Hello, _: &Call| "hello")
        .unwrap();
    assert_eq!(tools.call("hit", None).blocks(), ["call 1"]);
    assert_eq!(tools.call("later", None).blocks(), ["later 2"]);
    assert_eq!(tools.call("stats", None).blocks(), ["3"]);
    assert_eq!(tools.call("hello", None).blocks(), ["hello"]);
    assert_eq!(tools.state().calls.load(Ordering::SeqCst), 3);
}

#[test]
fn a_shared_state_is_the_programs_own_arc() {
    let counter = Arc::new(Counter::default());
    let tools = ToolSet::with_shared_state(Arc::clone(&counter))
        .tool(Counter::hit)
        .unwrap();
    tools.call("hit", None);
    assert_eq!(counter.calls.load(Ordering::SeqCst), 1);
    assert!(std::ptr::eq(tools.state(), &raw const *counter));
}

#[test]
fn a_stateful_async_handler_may_await() {
    let tools = ToolSet::with_state(Counter::default())
        .tool_async(|counter: Arc<Counter>, _: Later, _: Call| async move {
            std::future::ready(()).await;
            counter.bump()
        })
        .unwrap();
    assert_eq!(tools.call("later", None).blocks(), ["1"]);
    assert_eq!(tools.call("later", None).blocks(), ["2"]);
}

#[test]
fn the_output_schema_comes_from_the_handlers_return_type() {
    let tools = ToolSet::with_state(Counter::default())
        .tool(Counter::stats)
        .unwrap();
    let schema = tools.get("stats").unwrap().output_schema().unwrap();
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["properties"]["calls"]["type"], "integer");
    let response = tools.call("stats", None);
    assert_eq!(response.structured_content(), Some(&json!({"calls": 0})));
    assert_eq!(response.blocks(), ["{\n  \"calls\": 0\n}"]);
}

#[test]
fn a_declared_output_must_be_the_returned_type() {
    let same = ToolSet::new().tool(|_: DeclaredStats, _: &Call| Structured(Totals { calls: 1 }));
    assert!(same.is_ok(), "the declared type is the returned one");

    let other = ToolSet::new()
        .tool(|_: MismatchedStats, _: &Call| Structured(Totals { calls: 1 }))
        .unwrap_err();
    assert_eq!(other.tool(), "mismatched_stats");
    let text = other.to_string();
    assert!(text.contains("Structured<"), "{text}");
    assert!(text.contains("Totals>"), "{text}");
    assert!(text.contains("remove `output = ...`"), "{text}");
}

#[test]
fn a_structured_result_may_fail_with_a_tool_error() {
    let tools = ToolSet::new()
        .tool(
            |_: Stats, _: &Call| -> Result<Structured<Totals>, ToolError> {
                Err(ToolError::not_found("No stats yet."))
            },
        )
        .unwrap();
    let refused = tools.call("stats", None);
    assert_eq!(refused.is_error(), Some(true));
    assert!(refused.blocks()[0].starts_with("<tool_error code=\"NOT_FOUND\""));
    assert_eq!(refused.structured_content(), None);
}

#[test]
fn a_structured_type_that_is_no_object_is_refused_when_the_tool_is_added() {
    // A list's schema has no object root: it can never be `structuredContent`.
    let refused = ToolSet::new()
        .tool_async(|_: Later, _: Call| async { Structured(vec![1, 2]) })
        .unwrap_err();
    assert_eq!(refused.tool(), "later");
    assert!(
        refused
            .to_string()
            .contains("must be `\"type\": \"object\"`"),
        "{refused}"
    );
}

#[test]
fn an_async_structured_handler_has_its_output_schema() {
    let tools = ToolSet::with_state(Counter::default())
        .tool_async(|counter: Arc<Counter>, _: Later, _: Call| async move {
            Ok::<_, ToolError>(Structured(Totals {
                calls: counter.bump(),
            }))
        })
        .unwrap();
    assert!(tools.get("later").unwrap().output_schema().is_some());
    let response = tools.call("later", None);
    assert_eq!(response.structured_content(), Some(&json!({"calls": 1})));
}

#[test]
fn v140_recovery_on_an_action_of_another_tool() {
    let response = ToolError::not_found("The task \"T-9\" does not exist.")
        .recovery("Call tasks with action \"get_project\" to find valid ids.")
        .action("get_task")
        .other_action("tasks", "get_project")
        .into_response();
    assert_eq!(response.is_error(), Some(true));
    assert_eq!(
        response.blocks(),
        [
            "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>The task \"T-9\" does not exist.</message>\n<recovery>Call tasks with action \"get_project\" to find valid ids.</recovery>\n<available_actions>\n  <action>get_task</action>\n  <action tool=\"tasks\">get_project</action>\n</available_actions>\n</tool_error>"
        ]
    );
}

#[test]
fn v141_recovery_on_another_flat_tool() {
    let response = ToolError::warning("STALE", "The totals are an hour old.")
        .other_tool("invoice_stats")
        .into_response();
    assert_eq!(response.is_error(), Some(false));
    assert_eq!(
        response.blocks(),
        [
            "<tool_error code=\"STALE\" severity=\"warning\">\n<message>The totals are an hour old.</message>\n<available_actions>\n  <tool>invoice_stats</tool>\n</available_actions>\n</tool_error>"
        ]
    );
}

#[test]
fn v142_other_tool_names_are_escaped() {
    let response = ToolError::new("X", "m")
        .other_action("a\"b\n", "x<y")
        .other_tool("<tool>")
        .into_response();
    assert_eq!(
        response.blocks(),
        [
            "<tool_error code=\"X\" severity=\"error\">\n<message>m</message>\n<available_actions>\n  <action tool=\"a&quot;b&#10;\">x&lt;y</action>\n  <tool>&lt;tool></tool>\n</available_actions>\n</tool_error>"
        ]
    );
}

/// A task: what the `tracker` tool declares for `get_task`.
#[derive(fusion_runtime::Presenter)]
struct Task {
    id: String,
}

/// A project: what `get_task` must not present.
#[derive(fusion_runtime::Presenter)]
struct Project {
    name: String,
}

/// Tracks tasks
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(select)]
enum Tracker {
    #[fusion(returns = Task)]
    GetTask {
        wrong: bool,
    },
    #[fusion(returns = [Task])]
    ListTasks {
        one: bool,
    },
    Ping,
}

fn tracker(failures: Arc<std::sync::Mutex<Vec<String>>>) -> ToolSet {
    ToolSet::new()
        .tool(|action: Tracker, call: &Call| {
            let task = Task { id: "T-1".into() };
            let project = Project { name: "P".into() };
            match action {
                // `list_tasks` with `one` presents a single task where a collection is declared:
                // the same model, so the same fields.
                Tracker::GetTask { wrong: false } | Tracker::ListTasks { one: true } => {
                    call.present(&task).build()
                }
                // An action that declares no model (`ping`) may present any.
                Tracker::GetTask { wrong: true } | Tracker::Ping => call.present(&project).build(),
                Tracker::ListTasks { one: false } => call.present_all(&[task]).build(),
            }
        })
        .unwrap()
        .on_internal_error(move |failure| failures.lock().unwrap().push(failure.to_string()))
}

#[test]
fn v143_presenting_a_model_the_action_does_not_declare_is_an_internal_error() {
    let failures = Arc::new(std::sync::Mutex::new(Vec::new()));
    let tools = tracker(Arc::clone(&failures));
    let call = |arguments| tools.call("tracker", Some(arguments));

    let right = call(json!({"action": "get_task", "wrong": false, "_select": ["id"]}));
    assert_eq!(right.blocks(), ["{\n  \"id\": \"T-1\"\n}"]);
    assert_eq!(
        call(json!({"action": "list_tasks", "one": false})).is_error(),
        None
    );
    assert_eq!(call(json!({"action": "ping"})).is_error(), None);
    assert!(failures.lock().unwrap().is_empty());

    let wrong = call(json!({"action": "get_task", "wrong": true}));
    assert_eq!(
        wrong.blocks(),
        [
            "<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n<message>[tracker/get_task] The action failed with an internal error.</message>\n<recovery>This may be a transient failure. Retry the call once; if it fails again, tell the user the action is unavailable.</recovery>\n</tool_error>"
        ]
    );
    let single = call(json!({"action": "list_tasks", "one": true}));
    assert_eq!(single.is_error(), None);
    let tasks_for_a_project = call(json!({"action": "get_task", "wrong": true}));
    assert_eq!(tasks_for_a_project.is_error(), Some(true));

    let failures = failures.lock().unwrap();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(
        failures[0].starts_with(
            "[tracker/get_task] the action declares `returns = Task`, but its handler presented `Project`"
        ),
        "{}",
        failures[0]
    );
    assert_eq!(failures[0], failures[1]);
}

#[test]
fn the_task_trackers_stats_are_structured_from_its_return_type() {
    let tools = fusion_examples::tasks::tasks_tools().unwrap();
    let stats = tools.call("task_stats", None);
    let counts = stats.structured_content().unwrap();
    let count = |key: &str| counts[key].as_u64().unwrap();
    assert!(count("total") > 0);
    assert_eq!(
        count("total"),
        count("todo") + count("doing") + count("done")
    );
    let schema = tools.get("task_stats").unwrap().output_schema().unwrap();
    assert_eq!(
        schema["required"],
        json!(["total", "todo", "doing", "done"])
    );
    // The same tracker answers `tasks`.
    let project = tools.call(
        "tasks",
        Some(json!({"action": "get_project", "id": "PRJ-1"})),
    );
    assert_eq!(project.is_error(), None, "{:?}", project.blocks());
}
