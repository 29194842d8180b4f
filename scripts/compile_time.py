#!/usr/bin/env python3
"""Compile-time cost of `#[derive(Presenter)]` (PERFORMANCE.md, "Compile time").

Generates two crates of 100 models: one with `#[derive(Presenter)]` (which also writes the
model's `Serialize`), one with serde's `#[derive(Serialize)]` only. Two shapes (`--shape`):

- `chain` (the default): 10 fields each, a rule, a redaction and an embed each, model *i*
  embedding model *i - 1*: one chain 100 deep, a shape no user writes, kept as the worst case;
- `realistic`: 20 families of the examples' five kinds of model (a customer and an invoice line,
  the leaves; an invoice embedding both; a statement embedding its invoices, so embeds are at
  most 3 deep; a flat export row), with the attributes in the proportions the billing and tasks
  examples use (static and templated rules, `when`, `many`, suggestions, UI functions, a
  generated table, agent limits, redaction, a serde skip). Then builds each crate several times, clean (the crate only; its
dependencies stay built) and incremental (after editing one doc comment of one model), and
prints min/median. The two crates are built alternately, run after run, so that a change in the
load of a shared machine hits both alike.

With `--instructions`, it also counts the instructions rustc executes to compile each crate once
(valgrind, no incremental cache): a deterministic figure that a shared, noisy machine cannot move.

Usage: python3 scripts/compile_time.py [--runs N] [--instructions]   (from the workspace root)
"""

import argparse
import os
import re
import shlex
import tempfile
import pathlib
import shutil
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
# `COMPILE_BENCH_DIR` moves it, so that two checkouts (a build before and after a change) share
# one target directory for the dependencies.
OUT = pathlib.Path(os.environ.get("COMPILE_BENCH_DIR", ROOT / "target" / "compile-bench"))
MODELS = 100
# `chain` or `realistic` (set by `--shape`).
SHAPE = "chain"


def model(i: int, presenter: bool, edit: int = 0) -> str:
    child = f"Option<Box<Model{i - 1}>>" if i > 0 else "Option<Box<Leaf>>"
    lines = []
    if presenter:
        lines.append("#[derive(fusion_runtime::Presenter)]")
        lines.append(f'#[rule("Model{i}: amount_cents is in CENTS. Divide by 100.")]')
    else:
        lines.append("#[derive(serde::Serialize)]")
    # The incremental builds edit this doc comment of one model.
    lines.append(f"/// Model {i}." + (f" Edit {edit}." if edit and i == MODELS // 2 else ""))
    lines.append(f"pub struct Model{i} {{")
    fields = [
        ("id", "String"),
        ("name", "String"),
        ("amount_cents", "u64"),
        ("currency", "String"),
        ("status", "String"),
        ("issued_at", "String"),
        ("due_at", "String"),
        ("count", "u32"),
    ]
    for name, ty in fields:
        lines.append(f"    /// Field {name}.")
        lines.append(f"    pub {name}: {ty},")
    lines.append("    /// A redacted field.")
    if presenter:
        lines.append("    #[redact]")
    lines.append("    pub secret: String,")
    lines.append("    /// An embedded child.")
    if presenter:
        lines.append("    #[embed]")
    lines.append(f"    pub child: {child},")
    lines.append("}")
    return "\n".join(lines)


def family(f: int, presenter: bool, edit: int = 0) -> str:
    """Five models of the realistic shape: `Customer{f}`, `Line{f}`, `Invoice{f}`,
    `Statement{f}`, `Row{f}` (one of them carries the incremental edit)."""
    p = presenter

    def derive(attrs: list) -> list:
        if not p:
            return ["#[derive(serde::Serialize)]"]
        return ["#[derive(fusion_runtime::Presenter)]", *attrs]

    def redact() -> str:
        return "    #[redact]\n" if p else ""

    def embed() -> str:
        return "    #[embed]\n" if p else ""

    edit_note = f" Edit {edit}." if edit and f == 10 else ""
    status = f"Status{f}"
    out = [
        f"#[derive(Clone, Copy, PartialEq, Eq, serde::Serialize)]\n"
        f"#[serde(rename_all = \"snake_case\")]\n"
        f"/// Paid, pending or overdue.\npub enum {status} {{ Paid, Pending, Overdue }}\n"
        f"impl core::fmt::Display for {status} {{\n"
        f"    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{\n"
        f"        f.write_str(match self {{ Self::Paid => \"paid\", Self::Pending => \"pending\", Self::Overdue => \"overdue\" }})\n"
        f"    }}\n}}",
        "\n".join(derive(['#[rule("customer.email is redacted for privacy; never ask the user for it.")]']))
        + f"\n/// A customer.\npub struct Customer{f} {{\n    pub id: String,\n    pub name: String,\n"
        + redact() + "    pub email: String,\n    pub country: String,\n}",
        "\n".join(derive(['#[rule("unit_price_cents is in CENTS. Divide by 100.")]']))
        + f"\n/// An invoice line.\npub struct Line{f} {{\n    pub sku: String,\n    pub description: String,\n"
        + "    pub qty: u32,\n    pub unit_price_cents: u64,\n}",
        "\n".join(derive([
            "#[presenter(agent_limit = 50)]",
            '#[rule("amount_cents is in CENTS. Divide by 100.")]',
            '#[rule("Invoice {id} is overdue since {due_at}: mention it first.", when = Self::is_overdue, many = "Invoices {items} are overdue: mention them first.")]',
            '#[suggest(tool = "billing.remind", reason = "Send a payment reminder", when = Self::is_open)]',
            '#[suggest(tool = "billing.void_invoice", reason = "Void it if it cannot be collected", when = Self::is_open)]',
            "#[ui(Self::gauge)]",
            "#[collection_ui(Self::summary)]",
        ]))
        + f"\n/// An invoice.{edit_note}\npub struct Invoice{f} {{\n    pub id: String,\n"
        + embed() + f"    pub customer: Customer{f},\n    pub amount_cents: u64,\n    pub currency: String,\n"
        + f"    pub status: {status},\n    pub issued_at: String,\n    pub due_at: String,\n"
        + embed() + f"    pub lines: Vec<Line{f}>,\n    #[serde(skip_serializing)]\n    pub internal_margin_bps: u32,\n}}\n"
        + f"impl Invoice{f} {{\n"
        + f"    fn is_overdue(&self) -> bool {{ self.status == {status}::Overdue }}\n"
        + f"    fn is_open(&self) -> bool {{ matches!(self.status, {status}::Pending | {status}::Overdue) }}\n"
        + ("    fn gauge(&self) -> fusion_runtime::ui::UiBlock { fusion_runtime::ui::markdown(format!(\"{} cents\", self.amount_cents)).title(\"Amount\") }\n"
           "    fn summary(items: &[Self]) -> fusion_runtime::ui::UiBlock { fusion_runtime::ui::summary(format!(\"{} invoices\", items.len())) }\n" if p else "")
        + "}",
        "\n".join(derive([
            "#[presenter(agent_limit = 5)]",
            '#[rule("Dates are YYYY-MM-DD.")]',
            '#[rule("owner_email is redacted; never ask for it.")]',
            "#[ui(Self::overview)]",
            '#[collection_ui(table(id, name, opened), title = "Statements")]',
        ]))
        + f"\n/// A statement.\npub struct Statement{f} {{\n    pub id: String,\n    pub name: String,\n"
        + redact() + "    pub owner_email: String,\n    pub opened: String,\n"
        + embed() + f"    pub invoices: Vec<Invoice{f}>,\n}}\n"
        + (f"impl Statement{f} {{\n    fn overview(&self) -> Vec<fusion_runtime::ui::UiBlock> {{ vec![fusion_runtime::ui::markdown(format!(\"**{{}}** invoices\", self.invoices.len())).title(\"Invoices\")] }}\n}}" if p else ""),
        "\n".join(derive([]))
        + f"\n/// An export row.\npub struct Row{f} {{\n    pub id: String,\n    pub customer: String,\n"
        + f"    pub amount_cents: u64,\n    pub currency: String,\n    pub status: {status},\n    pub issued_at: String,\n}}",
    ]
    return "\n\n".join(out)


def source(presenter: bool, edit: int = 0) -> str:
    if SHAPE == "realistic":
        body = ["//! Generated by scripts/compile_time.py (realistic shape).",
                "#![allow(missing_docs, dead_code)]"]
        body += [family(f, presenter, edit) for f in range(MODELS // 5)]
        return "\n\n".join(body) + "\n"
    return chain_source(presenter, edit)


def chain_source(presenter: bool, edit: int = 0) -> str:
    leaf_derive = "#[derive(fusion_runtime::Presenter)]" if presenter else "#[derive(serde::Serialize)]"
    body = [
        "//! Generated by scripts/compile_time.py.",
        "#![allow(missing_docs, dead_code)]",
        # `Embed::DECLARES_UI` of a chain of 100 embedded models is a constant 100 levels deep,
        # past rustc's default query depth (128 with the steps per level); a real model tree is
        # not that deep. Both crates get the attribute, so the comparison stays fair.
        '#![recursion_limit = "512"]',
        leaf_derive,
        "/// A leaf.",
        "pub struct Leaf { /// id\n pub id: String }",
    ]
    body += [model(i, presenter, edit) for i in range(MODELS)]
    return "\n\n".join(body) + "\n"


def crate(name: str, presenter: bool) -> pathlib.Path:
    path = OUT / name
    (path / "src").mkdir(parents=True, exist_ok=True)
    (path / "src" / "lib.rs").write_text(source(presenter))
    runtime = (ROOT / "fusion-runtime").as_posix()
    deps = f'fusion-runtime = {{ path = "{runtime}" }}\n' if presenter else ""
    deps += 'serde = { version = "1", features = ["derive"] }\n'
    (path / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        f"[dependencies]\n{deps}\n[workspace]\n"
    )
    return path


def build(path: pathlib.Path, target: pathlib.Path) -> float:
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    start = time.perf_counter()
    subprocess.run(["cargo", "build", "-q"], cwd=path, env=env, check=True)
    return time.perf_counter() - start


def crate_name(kind: str) -> str:
    """`serde-only` / `presenter`, with the shape's suffix for the realistic crate."""
    return kind if SHAPE == "chain" else f"{kind}-{SHAPE}"


def measure(runs: int) -> dict:
    target = OUT / "target"
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    crates = {crate_name("serde-only"): False, crate_name("presenter"): True}
    paths = {name: crate(name, presenter) for name, presenter in crates.items()}
    for path in paths.values():
        build(path, target)  # dependencies and a first build
    times = {name: {"clean": [], "incremental": []} for name in crates}
    for run in range(1, runs + 1):
        for name, presenter in crates.items():
            path = paths[name]
            subprocess.run(["cargo", "clean", "-q", "-p", name], cwd=path, env=env, check=True)
            times[name]["clean"].append(build(path, target))
        for name, presenter in crates.items():
            path = paths[name]
            (path / "src" / "lib.rs").write_text(source(presenter, edit=run))
            times[name]["incremental"].append(build(path, target))
    return times


def rustc_instructions(name: str) -> int:
    """Instructions of one rustc run compiling crate `name` from scratch, under valgrind."""
    path, target = OUT / name, OUT / "target"
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    subprocess.run(["cargo", "clean", "-q", "-p", name], cwd=path, env=env, check=True)
    log = subprocess.run(["cargo", "build", "-v"], cwd=path, env=env, check=True,
                         capture_output=True, text=True).stderr
    crate_name = name.replace("-", "_")
    line = next(l for l in log.splitlines() if f"--crate-name {crate_name} " in l and "Running" in l)
    words = shlex.split(line[line.index("`") + 1:line.rindex("`")])
    command, skip = [], False
    with tempfile.TemporaryDirectory() as out_dir:
        for i, word in enumerate(words):
            if skip:
                skip = False
                continue
            if word == "-C" and words[i + 1].startswith("incremental="):
                skip = True
                continue
            if word.startswith(("--error-format", "--json")):
                continue
            if word == "--out-dir":
                command += [word, out_dir]
                skip = True
                continue
            command.append(word)
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--cache-sim=no",
             *command],
            cwd=path, check=True, capture_output=True, text=True,
        )
    return int(re.search(r"Collected : (\d+)", result.stderr).group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instructions", action="store_true",
                        help="also count rustc's instructions under valgrind")
    parser.add_argument("--shape", choices=["chain", "realistic"], default="chain",
                        help="the 100-deep embed chain, or the examples' shapes (depth at most 3)")
    args = parser.parse_args()
    global SHAPE
    SHAPE = args.shape
    serde_name, presenter_name = crate_name("serde-only"), crate_name("presenter")
    if OUT.exists():
        shutil.rmtree(OUT / serde_name, ignore_errors=True)
        shutil.rmtree(OUT / presenter_name, ignore_errors=True)
    times = measure(args.runs)
    serde_only, presenter = times[serde_name], times[presenter_name]
    print(f"{MODELS} models ({SHAPE}), {args.runs} runs, seconds (min / median):")
    for kind in ("clean", "incremental"):
        a, b = serde_only[kind], presenter[kind]
        ratio = statistics.median(b) / statistics.median(a)
        print(
            f"  {kind:12} #[derive(Serialize)] {min(a):.2f} / {statistics.median(a):.2f}   "
            f"#[derive(Presenter)] {min(b):.2f} / {statistics.median(b):.2f}   "
            f"added {statistics.median(b) - statistics.median(a):+.2f} s ({100 * (ratio - 1):+.0f}%)"
        )
    if args.instructions:
        a, b = rustc_instructions(serde_name), rustc_instructions(presenter_name)
        print(
            f"  rustc instructions (one clean compile of the crate, valgrind): "
            f"#[derive(Serialize)] {a / 1e6:,.0f} M   #[derive(Presenter)] {b / 1e6:,.0f} M   "
            f"added {100 * (b / a - 1):+.0f}%"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
