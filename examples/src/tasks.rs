//! A small task tracker: the second example, whose presenters use every UI kind the billing
//! example does not (a mermaid gantt, markdown, a generated table, JSON and a code block), so that the MCP
//! Apps view renders all of them. `tasks_server` serves it over MCP stdio.

use std::error::Error;
use std::fmt::Write as _;
use std::sync::{Mutex, PoisonError};

use fusion_runtime::tool::DefinitionError;
use fusion_runtime::ui::{self, UiBlock, Width};
use fusion_runtime::{Call, Presenter, Structured, Tool, ToolError, ToolResponse, ToolSet};
use serde::Deserialize;

#[allow(
    missing_docs,
    reason = "a doc comment would become the `status` argument description"
)]
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum TaskStatus {
    Todo,
    Doing,
    Done,
}

impl TaskStatus {
    /// `todo`, `doing` or `done`.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Todo => "todo",
            TaskStatus::Doing => "doing",
            TaskStatus::Done => "done",
        }
    }
}

/// A task of a project.
///
/// A list of tasks (the project's, embedded) shows at most five, as a table of the task's own
/// fields: the generated table shows each cell as the data block does.
#[derive(Debug, Clone, Presenter)]
#[presenter(agent_limit = 5)]
#[rule("Dates are YYYY-MM-DD.")]
#[ui(Self::panels)]
#[collection_ui(table(id, title, status, due), title = "Tasks")]
pub struct Task {
    /// `T-1`…
    pub id: String,
    /// What to do.
    pub title: String,
    /// To do, doing or done.
    pub status: TaskStatus,
    /// First day of work, `YYYY-MM-DD`.
    pub start: String,
    /// Due date, `YYYY-MM-DD`.
    pub due: String,
    /// Notes, in markdown.
    pub notes: String,
}

impl Task {
    /// The notes as markdown, the task as JSON, and the command that closes it.
    fn panels(&self) -> Vec<UiBlock> {
        vec![
            ui::markdown(self.notes.clone())
                .title(format!("Notes: {}", self.title))
                .width(Width::Half)
                .priority(2),
            ui::json(
                serde_json::json!({"id": self.id, "status": self.status.as_str(), "due": self.due}),
            )
            .title("Task")
            .width(Width::Half)
            .priority(2),
            ui::code_block("sh", format!("tasks update {} --status done", self.id))
                .title("Close it from a shell")
                .priority(1),
        ]
    }
}

/// A project and its tasks.
#[derive(Debug, Clone, Presenter)]
#[rule("owner_email is redacted; never ask for it.")]
#[ui(Self::overview)]
pub struct Project {
    /// `PRJ-1`…
    pub id: String,
    /// The project's name.
    pub name: String,
    /// Who runs it; never written to a response.
    #[redact]
    pub owner_email: String,
    /// Its tasks, in plan order; embedded, so their table and rules come with the project.
    #[embed]
    pub tasks: Vec<Task>,
}

impl Project {
    /// Counters per status (a third each) and the plan as a gantt chart (the tasks' table
    /// comes with the embedded tasks).
    fn overview(&self) -> Vec<UiBlock> {
        let count = |status| self.tasks.iter().filter(|t| t.status == status).count();
        let mut blocks: Vec<UiBlock> = [
            ("To do", TaskStatus::Todo),
            ("Doing", TaskStatus::Doing),
            ("Done", TaskStatus::Done),
        ]
        .into_iter()
        .map(|(title, status)| {
            ui::markdown(format!("**{}** tasks", count(status)))
                .title(title)
                .width(Width::Third)
                .priority(3)
        })
        .collect();
        blocks.push(ui::mermaid(self.gantt()).title("Plan").priority(1));
        blocks
    }

    /// The plan as a mermaid gantt chart, one section per status.
    fn gantt(&self) -> String {
        // Task titles are free text; `:`, `;`, `#` and line breaks are gantt syntax.
        let label = |title: &str| title.replace([':', ';', '#', '\n', '\r'], " ");
        let mut source = format!(
            "gantt\n  title {}\n  dateFormat YYYY-MM-DD",
            label(&self.name)
        );
        for status in [TaskStatus::Done, TaskStatus::Doing, TaskStatus::Todo] {
            let tasks: Vec<&Task> = self.tasks.iter().filter(|t| t.status == status).collect();
            if tasks.is_empty() {
                continue;
            }
            source.push_str("\n  section ");
            source.push_str(status.as_str());
            for task in tasks {
                let state = match status {
                    TaskStatus::Done => "done, ",
                    TaskStatus::Doing => "active, ",
                    TaskStatus::Todo => "",
                };
                let _ = write!(
                    source,
                    "\n  {} :{state}{}, {}, {}",
                    label(&task.title),
                    task.id.replace(['-', ' '], "_").to_lowercase(),
                    task.start,
                    task.due
                );
            }
        }
        source
    }
}

/// The actions of the `tasks` tool.
#[allow(
    missing_docs,
    reason = "field docs would become argument descriptions in the schema"
)]
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
#[fusion(name = "tasks", description = "Track a project's tasks", select)]
pub enum Tasks {
    /// A project with its plan
    #[fusion(returns = Project, read_only)]
    GetProject { id: String },
    /// One task
    #[fusion(returns = Task, read_only)]
    GetTask { id: String },
    /// The tasks, all or those with one status
    #[fusion(returns = [Task], read_only)]
    ListTasks { status: Option<TaskStatus> },
    /// Move a task to another status
    #[fusion(returns = Task)]
    UpdateStatus { id: String, status: TaskStatus },
    /// Add a task to a project
    #[fusion(returns = Task)]
    CreateTask {
        project_id: String,
        title: String,
        notes: String,
        start: String,
        due: String,
    },
}

/// The tracker's one project, in memory.
#[derive(Debug)]
pub struct Tracker {
    project: Mutex<Project>,
}

impl Default for Tracker {
    fn default() -> Self {
        let task = |id: &str, title: &str, status, start: &str, due: &str, notes: &str| Task {
            id: id.into(),
            title: title.into(),
            status,
            start: start.into(),
            due: due.into(),
            notes: notes.into(),
        };
        let tasks = vec![
            task(
                "T-1",
                "Audit the old site",
                TaskStatus::Done,
                "2026-11-02",
                "2026-11-06",
                "Found **42** pages; 9 are *orphans*. See the [audit sheet](https://example.com/audit).",
            ),
            task(
                "T-2",
                "Design system",
                TaskStatus::Done,
                "2026-11-05",
                "2026-11-16",
                "Tokens, type scale and the button set.\n\n- colours\n- spacing\n- components",
            ),
            task(
                "T-3",
                "Build the pages",
                TaskStatus::Doing,
                "2026-11-16",
                "2026-12-04",
                "Home and pricing are done; the blog templates are next.",
            ),
            task(
                "T-4",
                "Content migration",
                TaskStatus::Todo,
                "2026-11-30",
                "2026-12-11",
                "Move posts with `migrate --since 2019`.",
            ),
            task(
                "T-5",
                "Launch",
                TaskStatus::Todo,
                "2026-12-14",
                "2026-12-15",
                "DNS switch at 09:00 UTC; roll back if **5xx > 1%**.",
            ),
        ];
        Tracker {
            project: Mutex::new(Project {
                id: "PRJ-1".into(),
                name: "Website relaunch".into(),
                owner_email: "lead@example.com".into(),
                tasks,
            }),
        }
    }
}

impl Tracker {
    /// The `tasks` tool.
    pub fn answer(&self, action: Tasks, call: &Call) -> Answer {
        // A poisoned lock only means another call panicked mid-update: the project is still valid.
        let mut project = self.project.lock().unwrap_or_else(PoisonError::into_inner);
        match action {
            Tasks::GetProject { id } => {
                if id != project.id {
                    return Err(not_found("project", &id).into());
                }
                Ok(call.present(&*project).build()?)
            }
            Tasks::GetTask { id } => {
                let task = project.tasks.iter().find(|t| t.id == id);
                let task = task.ok_or_else(|| not_found("task", &id))?;
                Ok(call.present(task).build()?)
            }
            Tasks::ListTasks { status } => {
                let tasks: Vec<Task> = project
                    .tasks
                    .iter()
                    .filter(|t| status.is_none_or(|wanted| t.status == wanted))
                    .cloned()
                    .collect();
                Ok(call.present_all(&tasks).build()?)
            }
            Tasks::UpdateStatus { id, status } => {
                let task = project.tasks.iter_mut().find(|t| t.id == id);
                let task = task.ok_or_else(|| not_found("task", &id))?;
                task.status = status;
                Ok(call.present(&*task).build()?)
            }
            Tasks::CreateTask {
                project_id,
                title,
                notes,
                start,
                due,
            } => {
                if project_id != project.id {
                    return Err(not_found("project", &project_id).into());
                }
                let task = Task {
                    id: format!("T-{}", project.tasks.len() + 1),
                    title,
                    status: TaskStatus::Todo,
                    start,
                    due,
                    notes,
                };
                let response = call.present(&task).build()?;
                project.tasks.push(task);
                Ok(response)
            }
        }
    }
}

/// What the handler returns: a response, or an error (a `ToolError` is sent as its envelope;
/// anything else becomes `INTERNAL_ERROR`).
pub type Answer = Result<ToolResponse, Box<dyn Error + Send + Sync>>;

fn not_found(what: &str, id: &str) -> ToolError {
    ToolError::not_found(format!("The {what} \"{id}\" does not exist."))
        .recovery("Call tasks with action \"get_project\" and id \"PRJ-1\" to find valid ids.")
}

/// The input of the `task_stats` tool.
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(deny_unknown_fields)]
#[fusion(
    name = "task_stats",
    description = "How many tasks there are, per status",
    read_only
)]
pub struct TaskStatsInput {}

/// The structured result of `task_stats`; its schema is the tool's `outputSchema`, taken from
/// the handler's return type ([`Tracker::task_stats`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct TaskStats {
    /// How many tasks the project has.
    pub total: u64,
    /// Tasks to do.
    pub todo: u64,
    /// Tasks in progress.
    pub doing: u64,
    /// Tasks done.
    pub done: u64,
}

impl Tracker {
    /// The `task_stats` tool: the project's tasks counted per status.
    pub fn task_stats(&self, _: TaskStatsInput, _: &Call) -> Structured<TaskStats> {
        let project = self.project.lock().unwrap_or_else(PoisonError::into_inner);
        let count = |status| {
            let tasks = project.tasks.iter().filter(|t| t.status == status);
            u64::try_from(tasks.count()).unwrap_or(u64::MAX)
        };
        Structured(TaskStats {
            total: u64::try_from(project.tasks.len()).unwrap_or(u64::MAX),
            todo: count(TaskStatus::Todo),
            doing: count(TaskStatus::Doing),
            done: count(TaskStatus::Done),
        })
    }
}

/// The `tasks` and `task_stats` tools over a fresh [`Tracker`], the set's shared state.
pub fn tasks_tools() -> Result<ToolSet<Tracker>, DefinitionError> {
    ToolSet::with_state(Tracker::default())
        .tool(Tracker::answer)?
        .tool(Tracker::task_stats)
}
