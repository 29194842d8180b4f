#!/usr/bin/env python3
"""Refits the token estimate's weights (fusion-runtime/src/encode/tokens/pairs.in, `PAIR_WEIGHTS`).

    cargo run --release -p fusion-examples --features token-report --bin token_calibration -- --dump \
        > /tmp/corpus.jsonl
    python3 scripts/fit_token_weights.py --tight 1.055 --high 1.245 --script-low 1.05 --loose-low 1.02 \
        --seconds 300 < /tmp/corpus.jsonl \
        [--write fusion-runtime/src/encode/tokens/pairs.in]

Needs numpy and scipy (`pip install scipy`); not part of the build or of CI. It counts, for every
corpus item, how many times each pair of character classes occurs (the last character's class and
this one's, as `encode/tokens.rs` classifies them), then solves an integer linear program for the
pair weights in 128ths of a token:

- the estimate is an upper bound: every item of at least 200 exact tokens at least --low times
  its exact count (the prose and rows of other scripts, `SCRIPTS`, at least --script-low times
  it: slack for text of those scripts unlike the corpus's), and every item, however small,
  estimated (rounded up) at no less than its exact count;
- every item of at least 200 tokens at most --high times its exact count, those of the
  categories a fitted response is made of (`TIGHT`) at most --tight times it, the columns of one
  kind of value (`COLUMNS`) at most --high-columns times it, and those of `UNBOUNDED` (scripts
  priced like others) with no bound above;
- the least total excess over the exact count inside that (the tight categories weighing
  more);
- a 4-byte character (an emoji, mostly) weighs what the emoji table says
  (`encode/tokens/emoji.in`, written by the `emoji_table` binary), not a pair: a fixed part of
  each item's estimate; the weight before a combining mark, the other character of its class, is
  one for every class before it (the block paths count on that);
- every weight before an ASCII character below 256 (one byte, for the block paths), nothing
  weighing more after a character than at the start nor two tokens less, and every multi-byte
  character at least --floor.

HiGHS stops at --seconds with the best weights found. It prints the weights and the ratios per
category; check them with `token_calibration` (which must pass) and put its table in
PERFORMANCE.md.
"""

import argparse
import json
import os
import re
import sys

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

UNIT = 128
MIN_TOKENS = 200

# The classes of encode/tokens.rs, and the groups whose runs count.
# Lower-case letters come in three classes, by how often they are found in words: vowels, the
# common consonants, and the rest. Words mostly alternate the first two; letters drawn at random
# are half rare ones, in clusters, which is how the estimate tells ids of random letters (about
# one token for two letters) from words (one token for five or more).
VOWEL, CONSONANT, RARE = "vowel", "consonant", "rare letter"
VOWELS, CONSONANTS = set("aeiou"), set("nrstldcmh")
UPPER, DIGIT, MARK, SPACE, NEWLINE = "upper", "digit", "mark", "space", "newline"
ACCENTED, ALPHABETIC, SYMBOL = "accented", "alphabetic", "symbol"
HIRAGANA, HAN, KATAKANA, EMOJI = "hiragana", "han", "katakana", "emoji"
CLASSES = (VOWEL, CONSONANT, RARE, UPPER, DIGIT, MARK, SPACE, NEWLINE, ACCENTED, ALPHABETIC,
           SYMBOL, HIRAGANA, HAN, KATAKANA, EMOJI)
# The categories held as an upper bound with no bound above: scripts the estimate has no class
# of their own for (Devanagari and Thai are priced as ideographs: safe, and far over).
UNBOUNDED = {"other scripts"}
# The categories of text in other scripts than the responses' (prose and rows of one language
# each: katakana product names, text in decomposed form): held at least --script-low times
# their exact count, slack for text of those scripts unlike the corpus's.
SCRIPTS = {"non-ASCII", "other scripts"}
# The categories of columns of one kind of value (UUIDs, hashes, codes, random letters): held
# within --high-columns.
COLUMNS = {"columns", "random letters"}
# The categories a fitted response is made of: held within --tight.
TIGHT = {"billing JSON", "billing TOON", "billing response", "wide non-ASCII JSON",
         "wide non-ASCII TOON", "wide non-ASCII blocks", "rules", "UI blocks"}


def classify(lead, second, third):
    """The class and width of a character that starts with a byte of 0x80 or more."""
    if lead == 0xC2:
        return SYMBOL, 2
    if 0xC3 <= lead <= 0xCB or 0xCE <= lead <= 0xCF or 0xD4 <= lead <= 0xDF:
        return ACCENTED, 2
    if 0xCC <= lead <= 0xCD:
        return EMOJI, 2
    if lead <= 0xDF:
        return ALPHABETIC, 2
    if lead == 0xE2 or (lead == 0xE3 and second < 0x81) or (lead == 0xEF and second >= 0xB8):
        return SYMBOL, 3
    if lead == 0xE3 and (second == 0x81 or (second == 0x82 and third < 0xA0)):
        return HIRAGANA, 3
    if lead == 0xE3 and second <= 0x83:
        return KATAKANA, 3
    if lead <= 0xEF:
        return HAN, 3
    return EMOJI, 4


def classes(text):
    """The class of every character, as `TokenTally::push_scalar` classifies them."""
    data = text.encode()
    out, at = [], 0
    while at < len(data):
        lead = data[at]
        second = data[at + 1] if at + 1 < len(data) else 0
        third = data[at + 2] if at + 2 < len(data) else 0
        if lead < 0x80:
            ch = chr(lead)
            kind = (VOWEL if ch in VOWELS else CONSONANT if ch in CONSONANTS else
                    RARE if "a" <= ch <= "z" else UPPER if "A" <= ch <= "Z" else
                    DIGIT if "0" <= ch <= "9" else NEWLINE if ch in "\n\r" else
                    SPACE if ch in " \t\x0b\x0c" else MARK)
            width = 1
        else:
            kind, width = classify(lead, second, third)
        out.append(kind)
        at += width
    return out


# The classes in the order of encode/tokens.rs (START is 0, before the first character).
ORDER = ("start",) + CLASSES
ASCII = (VOWEL, CONSONANT, RARE, UPPER, DIGIT, MARK, SPACE, NEWLINE)
# Before an ASCII character, the block paths know a non-ASCII class only by its code: a 2-byte
# letter as a common lower-case consonant, anything else as a symbol (`simd::code`). Their pairs
# share those weights.
STAND_IN = {ACCENTED: CONSONANT, ALPHABETIC: CONSONANT, HIRAGANA: SYMBOL, HAN: SYMBOL,
            KATAKANA: SYMBOL, EMOJI: SYMBOL}


def variable(last, next_):
    """The weight a pair of classes is priced by (pairs that share a weight share a name)."""
    if next_ in ASCII:
        last = STAND_IN.get(last, last)
    if next_ == EMOJI:
        # One weight after any class: a combining mark's (a 4-byte character is priced by the
        # emoji table instead, and the block paths replace this weight by its).
        last = "start"
    return (last, next_)


VARIABLES = list(dict.fromkeys(variable(last, next_) for last in ORDER for next_ in CLASSES))


def emoji_table():
    """The emoji table of encode/tokens/emoji.in: the tokens of each code point from U+1F000 to
    U+1FFFF with a space before it."""
    path = os.path.join(os.path.dirname(__file__), "..", "fusion-runtime", "src", "encode",
                        "tokens", "emoji.in")
    with open(path) as table:
        text = "\n".join(line.split("//")[0] for line in table)
        return [int(value) for value in re.findall(r"(\d+),", text)]


EMOJI_TOKENS = emoji_table()
EMOJI_FIRST = 0x1F000
FAR_TOKENS = 5


def four_byte_units(char):
    """What a 4-byte character weighs, in 128ths of a token (`four_byte_units` of tokens.rs)."""
    index = ord(char) - EMOJI_FIRST
    tokens = EMOJI_TOKENS[index] if 0 <= index < len(EMOJI_TOKENS) else FAR_TOKENS
    return tokens * UNIT


def features(text):
    """How many times each pair of classes (the last character's, this one's) occurs, and the
    units of the 4-byte characters (priced by the emoji table, not by a pair)."""
    counts = dict.fromkeys(VARIABLES, 0)
    fixed = 0
    last = "start"
    for char, kind in zip(text, classes(text)):
        if len(char.encode()) == 4:
            fixed += four_byte_units(char)
        else:
            counts[variable(last, kind)] += 1
        last = kind
    return [counts[name] for name in VARIABLES], fixed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--low", type=float, default=1.0)
    parser.add_argument("--high", type=float, default=1.17)
    parser.add_argument("--tight", type=float, default=1.03)
    parser.add_argument("--high-columns", type=float, default=1.4)
    parser.add_argument("--loose-low", type=float, default=1.0,
                        help="the least ratio of the other items (word soups, CSV, identifiers...): "
                             "slack for text like them but not in the corpus")
    parser.add_argument("--script-low", type=float, default=1.0,
                        help="the least ratio of the items of `SCRIPTS`")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--floor", type=float, default=16,
                        help="the least weight of a multi-byte character, in 128ths")
    parser.add_argument("--write", help="also write the table there (encode/tokens/pairs.in)")
    args = parser.parse_args()
    items = [json.loads(line) for line in sys.stdin if line.strip()]
    counted = [features(item["text"]) for item in items]
    x = np.array([counts for counts, _ in counted], dtype=float)
    fixed = np.array([units for _, units in counted], dtype=float)
    exact = np.array([item["exact"] for item in items], dtype=float)
    sized = exact >= MIN_TOKENS
    tight = np.array([item["category"] in TIGHT for item in items])
    rows = x[sized] / (exact[sized, None] * UNIT)
    n, k = rows.shape
    name = VARIABLES.index
    # Variables: the k weights, then each sized item's excess over its exact count.
    cost = np.where(tight[sized], 4.0, 1.0)
    objective = np.concatenate([np.zeros(k), cost])
    high = np.where(tight[sized], args.tight, args.high)
    high[np.array([item["category"] in COLUMNS for item in items])[sized]] = args.high_columns
    high[np.array([item["category"] in UNBOUNDED for item in items])[sized]] = np.inf
    low = np.where(tight[sized], args.low, args.loose_low)
    low[np.array([item["category"] in SCRIPTS for item in items])[sized]] = args.script_low
    # The ratio's part that the 4-byte characters' fixed weights make.
    constant = fixed[sized] / (exact[sized] * UNIT)
    constraints = [
        # ratio - excess = 1.
        LinearConstraint(np.hstack([rows, -np.eye(n)]), 1 - constant, 1 - constant),
        LinearConstraint(np.hstack([rows, np.zeros((n, n))]), low - constant, high - constant),
        # Every item rounds up to at least its exact count: x . w + fixed >= 128 (exact - 1) + 1.
        LinearConstraint(np.hstack([x, np.zeros((len(items), n))]),
                         UNIT * (exact - 1) + 1 - fixed, np.inf),
    ]

    def between(terms, low, limit):
        row = np.zeros(k + n)
        for feature, sign in terms:
            row[name(feature)] += sign
        constraints.append(LinearConstraint(row[None, :], low, limit))

    # Nothing weighs more after a character than at the start, and at most two tokens less
    # (the bounds of "Adding parts").
    for next_ in CLASSES:
        for last in CLASSES:
            if variable(last, next_) != variable("start", next_):
                between([(variable("start", next_), 1), (variable(last, next_), -1)], 0, 2 * UNIT)
    upper = np.array([255 if v[1] in ASCII else 4 * UNIT for v in VARIABLES], dtype=float)
    # A multi-byte character is never free, whatever comes before it.
    lower = np.array([0 if v[1] in ASCII else args.floor for v in VARIABLES], dtype=float)
    bounds = Bounds(np.concatenate([lower, np.full(n, args.low - 1)]),
                    np.concatenate([upper, np.full(n, np.inf)]))
    result = milp(objective, constraints=constraints, bounds=bounds,
                  integrality=np.concatenate([np.ones(k), np.zeros(n)]),
                  options={"time_limit": args.seconds})
    if result.x is None:
        sys.exit(f"no weights within {args.low}..{args.high} (tight {args.tight}): "
                 f"{result.message}")
    weights = np.round(result.x[:k]).astype(int)
    table = ["// The weights of `PAIR_WEIGHTS` (encode/tokens.rs), in 1/128 tokens: a row per class",
             "// before (start, vowel, consonant, rare letter, upper, digit, mark, space, newline,",
             "// accented, alphabetic, symbol, hiragana, han, katakana, emoji), a column per class after",
             "// (a continuation byte, weighing nothing, then the same classes), in that order.",
             "// Printed by scripts/fit_token_weights.py.", "["]
    for last in ORDER:
        row = [0] + [int(weights[name(variable(last, next_))]) for next_ in CLASSES]
        table += [f"    // after {last}", f"    {row},"]
    table.append("]")
    if args.write:
        with open(args.write, "w") as out:
            out.write("\n".join(table) + "\n")
    print("\n".join(table))
    print(f"// {result.message}")
    estimate = np.ceil((x @ weights + fixed) / UNIT)
    ratio = estimate / exact
    print(f"\nitems of at least {MIN_TOKENS} tokens: {ratio[sized].min():.3f}..{ratio[sized].max():.3f}, "
          f"median {np.median(ratio[sized]):.3f}; items under their exact count: "
          f"{int((estimate < exact).sum())}")
    for category in dict.fromkeys(item["category"] for item in items):
        mask = np.array([item["category"] == category for item in items]) & sized
        if mask.any():
            print(f"{category:>22}: {ratio[mask].min():.3f}..{np.median(ratio[mask]):.3f}.."
                  f"{ratio[mask].max():.3f} ({int(mask.sum())})")


if __name__ == "__main__":
    main()
