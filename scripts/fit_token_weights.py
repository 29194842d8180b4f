#!/usr/bin/env python3
"""Refits the token estimate's weights (fusion-runtime/src/encode/tokens.rs, `WEIGHTS`).

    cargo run --release -p fusion-examples --features token-report --bin token_calibration -- --dump \
        | python3 scripts/fit_token_weights.py [--low 0.962] [--high 1.14]

Needs numpy and scipy (`pip install scipy`); not part of the build or of CI. It counts, for every
corpus item, what the estimate counts (each character by class, each start of a run, each
accented letter after an ASCII one: the same classes as `encode/tokens.rs`), then solves an
integer linear program for the 16 weights in 128ths of a token: every item of at least 200 exact
tokens between --low and --high times its exact count, the least total deviation from the exact
count inside that, every weight before an ASCII character below 256 (one byte, for the block
paths), and an accented letter's weight after an ASCII letter no more than a word start's. It
prints the weights as `WEIGHTS` and the ratios per category; paste the weights, then check them
with `token_calibration` (which must pass) and put its table in PERFORMANCE.md.
"""

import argparse
import json
import sys

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

UNIT = 128
MIN_TOKENS = 200

# The classes of encode/tokens.rs, and the groups whose runs count.
LOWER, UPPER, DIGIT, MARK, SPACE, NEWLINE = "lower", "upper", "digit", "mark", "space", "newline"
ALPHABETIC, SYMBOL, SYLLABIC, EMOJI = "alphabetic", "symbol", "syllabic", "emoji"
RUNS = {LOWER: "letter", UPPER: "letter", ALPHABETIC: "letter", DIGIT: "digit", MARK: "mark",
        SPACE: "space", SYLLABIC: "syllabic"}
FEATURES = [f"character {c}" for c in (LOWER, UPPER, DIGIT, MARK, SPACE, NEWLINE, ALPHABETIC,
                                        SYMBOL, SYLLABIC, EMOJI)]
FEATURES += [f"run {g}" for g in ("letter", "digit", "mark", "space", "syllabic")]
FEATURES += ["mixed"]


def classes(text):
    """The class of every character, as `TokenTally::push_scalar` classifies them."""
    data = text.encode()
    out, at = [], 0
    while at < len(data):
        lead = data[at]
        second = data[at + 1] if at + 1 < len(data) else 0
        if lead < 0x80:
            ch = chr(lead)
            kind = (LOWER if "a" <= ch <= "z" else UPPER if "A" <= ch <= "Z" else
                    DIGIT if "0" <= ch <= "9" else NEWLINE if ch in "\n\r" else
                    SPACE if ch in " \t\x0b\x0c" else MARK)
            width = 1
        elif lead == 0xC2:
            kind, width = SYMBOL, 2
        elif 0xC3 <= lead <= 0xDF:
            kind, width = ALPHABETIC, 2
        elif lead == 0xE2 or (lead == 0xE3 and second < 0x81) or (lead == 0xEF and second >= 0xBC):
            kind, width = SYMBOL, 3
        elif 0xE0 <= lead <= 0xEF:
            kind, width = SYLLABIC, 3
        else:
            kind, width = EMOJI, 4
        out.append(kind)
        at += width
    return out


def features(text):
    counts = dict.fromkeys(FEATURES, 0)
    last = None
    for kind in classes(text):
        counts[f"character {kind}"] += 1
        group = RUNS.get(kind, kind)
        last_group = RUNS.get(last, last) if last else None
        if kind in RUNS and group != last_group:
            counts[f"run {group}"] += 1
        if kind == ALPHABETIC and last in (LOWER, UPPER):
            counts["mixed"] += 1
        last = kind
    return [counts[name] for name in FEATURES]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--low", type=float, default=0.962)
    parser.add_argument("--high", type=float, default=1.14)
    args = parser.parse_args()
    items = [json.loads(line) for line in sys.stdin if line.strip()]
    x = np.array([features(item["text"]) for item in items], dtype=float)
    exact = np.array([item["exact"] for item in items], dtype=float)
    sized = exact >= MIN_TOKENS
    rows = x[sized] / (exact[sized, None] * UNIT)
    n, k = rows.shape
    name = FEATURES.index
    # Variables: the k weights, then each item's deviation over and under its exact count.
    objective = np.concatenate([np.zeros(k), np.ones(n), np.ones(n) * 2])
    constraints = [
        LinearConstraint(np.hstack([rows, -np.eye(n), np.eye(n)]), 1, 1),
        LinearConstraint(np.hstack([rows, np.zeros((n, 2 * n))]), args.low, args.high),
    ]

    def at_most(terms, limit):
        row = np.zeros(k + 2 * n)
        for feature, sign in terms:
            row[name(feature)] += sign
        constraints.append(LinearConstraint(row[None, :], -np.inf, limit))

    at_most([("mixed", 1), ("run letter", -1)], 0)
    for character, run in [(LOWER, "letter"), (UPPER, "letter"), (DIGIT, "digit"),
                           (MARK, "mark"), (SPACE, "space"), (NEWLINE, None)]:
        at_most([(f"character {character}", 1)] + ([(f"run {run}", 1)] if run else []), 255)
    bounds = Bounds(np.zeros(k + 2 * n), np.concatenate([np.full(k, 2 * UNIT), np.full(2 * n, np.inf)]))
    result = milp(objective, constraints=constraints, bounds=bounds,
                  integrality=np.concatenate([np.ones(k), np.zeros(2 * n)]),
                  options={"time_limit": 120})
    if result.x is None:
        sys.exit(f"no weights within {args.low}..{args.high}: {result.message}")
    weights = np.round(result.x[:k]).astype(int)
    for feature, weight in zip(FEATURES, weights):
        print(f"{feature:>22}: {weight}")
    ratio = np.ceil(x @ weights / UNIT) / exact
    print(f"\nitems of at least {MIN_TOKENS} tokens: {ratio[sized].min():.3f}..{ratio[sized].max():.3f}, "
          f"median {np.median(ratio[sized]):.3f}")
    for category in dict.fromkeys(item["category"] for item in items):
        mask = np.array([item["category"] == category for item in items]) & sized
        if mask.any():
            print(f"{category:>18}: {ratio[mask].min():.3f}..{ratio[mask].max():.3f}")


if __name__ == "__main__":
    main()
