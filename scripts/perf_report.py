#!/usr/bin/env python3
"""Every figure of PERFORMANCE.md, in one run: rendering, allocations, TOON, compile time.

Runs the divan benches of fusion-runtime (`presenter`, `alloc`, `toon`), parses their tables and
prints Markdown tables: min and median of each contender and the ratios asked for, all measured
side by side in the same run. With `--instructions`, also counts the instructions of one render
under valgrind (deterministic, so the ratios do not move with the load of a shared machine). With
`--compile`, also runs `scripts/compile_time.py` (and its rustc instruction counts). With
`--tokens`, also runs the examples' token report (o200k_base token counts of each format).
`--all` is all three: every figure of PERFORMANCE.md.

Usage (from the workspace root):
    python3 scripts/perf_report.py          # the benches only (about a minute once built)
    python3 scripts/perf_report.py --all    # everything (a few minutes; needs valgrind)
    python3 scripts/perf_report.py --runs 3 --before DIR --instructions
        # before/after: DIR holds the bench executables (presenter, toon, alloc) built at an
        # earlier commit; each run executes the earlier and the current binaries one after the
        # other, and every figure is the median over the runs (ratios with their spread)
"""

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

UNITS = {"ps": 1e-12, "ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def bench_binaries() -> dict:
    """Builds the benches and returns {bench name: executable path}."""
    out = subprocess.run(
        ["cargo", "bench", "-p", "fusion-runtime", "--no-run", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    paths = {}
    for line in out.splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue
        target = message.get("target", {})
        if message.get("reason") == "compiler-artifact" and "bench" in target.get("kind", []):
            if message.get("executable"):
                paths[target["name"]] = message["executable"]
    return paths


def seconds(text: str) -> float:
    number, unit = text.split()
    return float(number) * UNITS[unit]


def parse_divan(output: str) -> dict:
    """{path: {"min": s, "median": s, "samples": n, "alloc": n, "grow": n, ...}} of a divan table.

    A node line is `├─ name  fastest │ slowest │ median │ mean │ samples │ iters` (a group has no
    times); with `AllocProfiler`, a label line (`alloc:`) is followed by a count line and a
    bytes line, columns as above.
    """
    results, stack, current, pending, boundary = {}, [], None, None, None
    for raw in output.splitlines():
        if boundary is None:
            # The header (`NAME  fastest │ slowest │ ...`): its first `│` ends the first column
            # on every line (the tree on the left uses `│` too).
            if "fastest" in raw and "│" in raw:
                boundary = raw.index("│")
            continue
        cells = [raw[:boundary].strip()] + [c.strip() for c in raw[boundary + 1:].split("│")]
        cells[0] = re.sub(r"^[│\s]+(?=[├╰])", "", cells[0])
        if "├─" in cells[0] or "╰─" in cells[0]:
            depth = (raw.index("─") - 1) // 3
            name, _, fastest = re.sub(r"^[├╰─\s]+", "", cells[0]).partition(" ")
            del stack[depth:]
            stack.append(name)
            current, pending = None, None
            if fastest.strip():
                current = results.setdefault("::".join(stack), {})
                current.update(min=seconds(fastest.strip()), median=seconds(cells[2]),
                               samples=int(cells[4]))
            continue
        if current is None or len(cells) < 3:
            continue
        label = cells[0].lstrip("│ ")
        if label.endswith(":"):
            pending = label[:-1]
        elif pending and re.fullmatch(r"[0-9.]+", label):
            current[pending] = float(cells[2])
            pending = None
    return results


def run_bench(binary: str, *args: str) -> dict:
    out = subprocess.run([binary, "--bench", *args], cwd=ROOT, check=True,
                         capture_output=True, text=True)
    return parse_divan(out.stdout)


def fmt_time(s: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s:.3g} s"


def median_of(runs: list, path: str, stat: str) -> dict:
    """The median over `runs` (divan results of the same binary) of `stat` of `path`."""
    return statistics.median(r[path][stat] for r in runs)


def ratio_of(runs: list, a: str, b: str, stat: str) -> str:
    """`a / b` of `stat` in each run: the median, and the spread (lowest-highest) over runs."""
    ratios = sorted(r[a][stat] / r[b][stat] for r in runs)
    if len(ratios) == 1:
        return f"{ratios[0]:.2f}"
    return f"{statistics.median(ratios):.2f} ({ratios[0]:.2f}–{ratios[-1]:.2f})"


def before_after_table(before: list, after: list) -> str:
    """Rendering before and after: medians over the runs of each contender's min, and the
    ratios that the targets are stated in (medians of the per-run ratios, with spread)."""
    lines = [
        "| case | contender | before | after | after / before | "
        "/ pretty JSON floor, before | / pretty JSON floor, after |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, label in CASES:
        for name in ("derived", "by_hand", "spec_json_writer", "floor_all_json",
                     "floor_pretty_json"):
            path, floor = f"{key}::{name}", f"{key}::floor_pretty_json"
            if path not in after[0] or path not in before[0]:
                continue
            b, a = median_of(before, path, "min"), median_of(after, path, "min")
            lines.append(
                f"| {label} | {name} | {fmt_time(b)} | {fmt_time(a)} | {a / b:.2f} "
                f"| {ratio_of(before, path, floor, 'min')} | {ratio_of(after, path, floor, 'min')} |"
            )
    return "\n".join(lines)


def toon_before_after(before: list, after: list) -> str:
    lines = [
        "| encoder (10,000 rows) | before | after | / `to_string_pretty`, before "
        "| / `to_string_pretty`, after |",
        "|---|---|---|---|---|",
    ]
    for name in ("compile_time_path", "generic_encoder", "fusion_json", "serde_json_pretty",
                 "toon_format_encode"):
        b, a = median_of(before, name, "min"), median_of(after, name, "min")
        lines.append(
            f"| {name} | {fmt_time(b)} | {fmt_time(a)} "
            f"| {ratio_of(before, name, 'serde_json_pretty', 'min')} "
            f"| {ratio_of(after, name, 'serde_json_pretty', 'min')} |"
        )
    return "\n".join(lines)


CASES = [
    ("one_invoice", "one invoice (INV-0001, as V70)"),
    ("one_invoice_select_2", "one invoice, `_select` of 2 fields (V71)"),
    ("list_120_limit_50", "120 invoices, agent limit 50 (V75)"),
    ("list_10000_no_limit", "10,000 invoices, no limit"),
]


def rendering_table(results: dict) -> str:
    lines = [
        "| case | derived | by hand | pretty JSON floor | derived / floor | derived / by hand "
        "| our JSON writer / floor | all-JSON floor | derived / all-JSON floor |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    cell = lambda r: f"{fmt_time(r['min'])} / {fmt_time(r['median'])}"
    ratio = lambda a, b: f"{a['min'] / b['min']:.2f} / {a['median'] / b['median']:.2f}"
    for key, label in CASES:
        get = lambda name: results.get(f"{key}::{name}")
        d, h, f, w = get("derived"), get("by_hand"), get("floor_pretty_json"), get("spec_json_writer")
        a = get("floor_all_json")
        lines.append(
            f"| {label} | {cell(d)} | {cell(h)} | {cell(f)} | **{ratio(d, f)}** | {ratio(d, h)} "
            f"| {ratio(w, f)} | {cell(a) if a else '—'} | {ratio(d, a) if a else '—'} |"
        )
    return "\n".join(lines)


def alloc_table(results: dict) -> str:
    lines = ["| render | 5 fields | 20 fields | 80 fields |", "|---|---|---|---|"]
    for case in ("fields_single", "fields_single_select_2", "fields_collection_10"):
        row = [case.removeprefix("fields_").replace("_", " ")]
        for width in ("Wide5", "Wide20", "Wide80"):
            r = results.get(f"{case}::{width}", {})
            row.append(f"{r.get('alloc', 0):.0f} + {r.get('grow', 0):.0f}")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "| billing render (derived) | allocations + reallocations |", "|---|---|"]
    for key, label in CASES:
        r = results.get(f"billing_cases::{key}", {})
        lines.append(f"| {label} | {r.get('alloc', 0):.0f} + {r.get('grow', 0):.0f} |")
    r = results.get("billing_cases::one_invoice_gauge_alone", {})
    lines.append(f"| the gauge callback of one invoice alone (application code) "
                 f"| {r.get('alloc', 0):.0f} + {r.get('grow', 0):.0f} |")
    return "\n".join(lines)


def toon_table(results: dict) -> str:
    lines = ["| encoder (10,000 rows) | min / median |", "|---|---|"]
    for name, label in (
        ("generic_encoder", "fusion TOON encoder"),
        ("toon_format_encode", "`toon-format` 0.7 `encode`"),
        ("serde_json_pretty", "`serde_json::to_string_pretty`"),
        ("fusion_json", "fusion wire format §3 JSON writer"),
    ):
        r = results[name]
        lines.append(f"| {label} | {fmt_time(r['min'])} / {fmt_time(r['median'])} |")
    return "\n".join(lines)


def instructions_before_after(before: str, after: str) -> str:
    lines = ["| case | contender | before | after | after / before |", "|---|---|---|---|---|"]
    for key, label in CASES:
        for name in ("derived", "by_hand", "spec_json_writer", "floor_pretty_json"):
            b, a = instructions(before, f"{key}::{name}"), instructions(after, f"{key}::{name}")
            lines.append(f"| {label} | {name} | {b:,.0f} | {a:,.0f} | {a / b:.2f} |")
    return "\n".join(lines)


def instructions(binary: str, bench: str) -> float:
    """Instructions of one call of the bench function `bench`, in steady state: the difference
    of two valgrind runs with 3 and 1 iterations, halved (the setup and the bench's own checks
    cancel out)."""
    function = f"presenter::{bench}"
    totals = []
    for count in (1, 3):
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--cache-sim=no",
             f"--toggle-collect={function}", binary, "--bench", f"^presenter::{bench}$",
             "--sample-count", str(count), "--sample-size", "1"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stderr
        collected = re.search(r"Collected : (\d+)", out)
        totals.append(int(collected.group(1)) if collected else 0)
    return (totals[1] - totals[0]) / 2


def instructions_table(binary: str) -> str:
    lines = [
        "| case | derived | by hand | pretty JSON floor | derived / floor | derived / by hand |",
        "|---|---|---|---|---|---|",
    ]
    for key, label in CASES:
        d = instructions(binary, f"{key}::derived")
        h = instructions(binary, f"{key}::by_hand")
        f = instructions(binary, f"{key}::floor_pretty_json")
        lines.append(
            f"| {label} | {d:,.0f} | {h:,.0f} | {f:,.0f} | {d / f:.2f} | {d / h:.2f} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions per render with valgrind")
    parser.add_argument("--compile", action="store_true",
                        help="also run scripts/compile_time.py")
    parser.add_argument("--tokens", action="store_true",
                        help="also run the token report of the examples")
    parser.add_argument("--all", action="store_true",
                        help="--instructions --compile --tokens")
    parser.add_argument("--runs", type=int, default=1,
                        help="with --before: how many alternating runs (figures are medians)")
    parser.add_argument("--before", type=pathlib.Path,
                        help="a directory with the presenter, toon and alloc bench executables "
                             "of an earlier build: print before/after tables")
    args = parser.parse_args()
    if args.all:
        args.instructions = args.compile = args.tokens = True
    binaries = bench_binaries()
    if args.before:
        earlier = {name: str(args.before / name) for name in ("presenter", "toon", "alloc")}
        runs = {"before": {"presenter": [], "toon": []}, "after": {"presenter": [], "toon": []}}
        for _ in range(args.runs):
            for bench in ("presenter", "toon"):
                runs["before"][bench].append(run_bench(earlier[bench]))
                runs["after"][bench].append(run_bench(binaries[bench]))
        print(f"## Rendering, before and after ({args.runs} alternating runs; min of each "
              "contender, median over runs; ratios: median (lowest–highest) of the runs)\n")
        print(before_after_table(runs["before"]["presenter"], runs["after"]["presenter"]))
        print("\n## Rendering after, min / median of the last run\n")
        print(rendering_table(runs["after"]["presenter"][-1]))
        print("\n## TOON, before and after\n")
        print(toon_before_after(runs["before"]["toon"], runs["after"]["toon"]))
        print("\n## Allocations before\n")
        print(alloc_table(run_bench(earlier["alloc"])))
        print("\n## Allocations after\n")
        print(alloc_table(run_bench(binaries["alloc"])))
        if args.instructions:
            print("\n## Instructions per render (valgrind), before and after\n")
            print(instructions_before_after(earlier["presenter"], binaries["presenter"]))
        return 0
    print("## Rendering (min / median; ratios of mins / of medians)\n")
    render = run_bench(binaries["presenter"])
    print(rendering_table(render))
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("\nvalgrind not found: instruction counts skipped")
        else:
            print("\n## Instructions per render (valgrind, deterministic)\n")
            print(instructions_table(binaries["presenter"]))
    print("\n## Allocations per render (allocations + reallocations)\n")
    print(alloc_table(run_bench(binaries["alloc"])))
    print("\n## TOON\n")
    print(toon_table(run_bench(binaries["toon"])))
    sys.stdout.flush()
    if args.tokens:
        print("\n## Tokens (o200k_base)\n\n```text")
        sys.stdout.flush()
        subprocess.run(
            ["cargo", "run", "-q", "--release", "-p", "fusion-examples", "--features",
             "token-report", "--bin", "token_report"],
            cwd=ROOT, check=True,
        )
        print("```")
        sys.stdout.flush()
    if args.compile:
        print("\n## Compile time\n")
        sys.stdout.flush()
        command = [sys.executable, str(ROOT / "scripts" / "compile_time.py")]
        if args.instructions:
            command.append("--instructions")
        subprocess.run(command, cwd=ROOT, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
