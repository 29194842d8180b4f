#!/usr/bin/env python3
"""What a crate that only presents models compiles of the runtime (PERFORMANCE.md, "A
presenter-only crate").

Builds `tests/presenter-only` (fusion-runtime with `default-features = false, features =
["derive"]`) in its own target directory, `target/presenter-only`:

- a clean build of everything (dependencies included), its wall time, and fusion-runtime's own
  unit time from `cargo build --timings`;
- `--runs N` rebuilds of the runtime and the crate alone (dependencies warm, after touching the
  runtime's `lib.rs`), min/median wall time;
- the runtime's source lines the compiler read: the `.rs` files of rustc's dep-info for the
  runtime (so exactly the modules the enabled features compile), all lines and code lines
  (neither blank nor comment), against every `.rs` file of `fusion-runtime/src`.

Usage: python3 scripts/presenter_only_build.py [--runs N] [--no-clean]   (from the workspace root)
"""

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET = ROOT / "target" / "presenter-only"
SRC = ROOT / "fusion-runtime" / "src"


def cargo_build(*extra: str) -> float:
    env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET))
    start = time.monotonic()
    subprocess.run(
        ["cargo", "build", "-q", "-p", "fusion-presenter-only", *extra],
        cwd=ROOT, env=env, check=True,
    )
    return time.monotonic() - start


def runtime_unit_seconds() -> float | None:
    report = TARGET / "cargo-timings" / "cargo-timing.html"
    if not report.exists():
        return None
    text = report.read_text()
    start = text.find("const UNIT_DATA = ")
    if start < 0:
        return None
    units, _ = json.JSONDecoder().raw_decode(text, start + len("const UNIT_DATA = "))
    for unit in units:
        if unit.get("name") == "fusion-runtime" and unit.get("target", "").strip() in ("", "(lib)"):
            return float(unit["duration"])
    return None


def lines(path: pathlib.Path) -> tuple[int, int]:
    total = code = 0
    for line in path.read_text().splitlines():
        total += 1
        stripped = line.strip()
        if stripped and not stripped.startswith("//"):
            code += 1
    return total, code


def compiled_sources() -> list[pathlib.Path]:
    infos = sorted(
        (TARGET / "debug" / "deps").glob("fusion_runtime-*.d"),
        key=lambda p: p.stat().st_mtime,
    )
    if not infos:
        raise SystemExit("no dep-info of fusion-runtime: did the build run?")
    first = infos[-1].read_text().split("\n", 1)[0]
    files = [pathlib.Path(f) for f in first.split(":", 1)[1].split()]
    return sorted({f.resolve() for f in files if f.suffix == ".rs"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-clean", action="store_true", help="skip the clean build")
    args = parser.parse_args()

    if not args.no_clean:
        shutil.rmtree(TARGET, ignore_errors=True)
        clean = cargo_build("--timings")
        unit = runtime_unit_seconds()
        print(f"clean build, dependencies included: {clean:.1f} s")
        if unit is not None:
            print(f"fusion-runtime's unit in it (cargo --timings): {unit:.2f} s")
    rebuilds = []
    for _ in range(args.runs):
        (SRC / "lib.rs").touch()
        rebuilds.append(cargo_build())
    if rebuilds:
        print(
            f"rebuild of the runtime and the crate ({args.runs} runs): "
            f"min {min(rebuilds):.2f} s, median {statistics.median(rebuilds):.2f} s"
        )
    compiled = compiled_sources()
    inside = [f for f in compiled if SRC.resolve() in f.parents]
    every = sorted(SRC.rglob("*.rs"))
    c_total = sum(lines(f)[0] for f in inside)
    c_code = sum(lines(f)[1] for f in inside)
    a_total = sum(lines(f)[0] for f in every)
    a_code = sum(lines(f)[1] for f in every)
    print(f"runtime files compiled: {len(inside)} of {len(every)}")
    print(
        f"runtime lines compiled: {c_total} of {a_total} ({100 * c_total / a_total:.0f}%), "
        f"code lines {c_code} of {a_code} ({100 * c_code / a_code:.0f}%)"
    )


if __name__ == "__main__":
    main()
