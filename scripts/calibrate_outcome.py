#!/usr/bin/env python3
"""Chooses the thresholds of the three-way outcome (answered / uncertain / not_found).

Reads the signal files `evident-bench eval --signals-out FILE` writes (one JSON line per
question and ranking mode: whether it is answerable, the rank of the first hit, and
the evidence), replays the decision rule of crates/evident-index/src/search/outcome.rs
over a grid of thresholds, and prints the best setting under the product's limits:

  * of the answerable questions marked `answered`, at least 90 % have the answer in
    the top 5 (a confident answer must be a right one);
  * at most 1 in 20 answerable questions is `not_found`;
  * as few unanswerable questions as possible are `answered`, then as many answerable
    ones as possible are.

The not-found line (relevant_coverage) is chosen on answerable questions only (at most
1 in 20 of them `not_found`): the everyday-question set has no off-topic questions, so
it cannot say how many of those would be refused; `evident-bench eval --against` measures that.

Run it on the calibration split only (colloquial-dev's odd questions, `--half odd`),
then report the chosen thresholds on the other split (`--half even`) and on the other
sets with `evident-bench eval`. The rule replayed here must match outcome.rs.

usage: scripts/calibrate_outcome.py SIGNALS.jsonl [MORE.jsonl ...]
"""
import itertools
import json
import sys


def decide(e, answer_coverage, relevant_coverage):
    """outcome.rs `decide`, line for line."""
    agreement = e.get("agreement")
    agreed = agreement is None or agreement > 0.0
    if e["coverage"] >= answer_coverage and agreed and not e.get("unmentioned"):
        return "answered"
    relevant = e["coverage"] >= relevant_coverage or (agreement is not None and agreement > 0.0)
    return "uncertain" if relevant else "not_found"


def score(rows, answer_coverage, relevant_coverage):
    counts = {"ans_answered": 0, "ans_hit": 0, "ans_not_found": 0, "un_answered": 0,
              "un_not_found": 0, "answerable": 0}
    for r in rows:
        status = decide(r["evidence"], answer_coverage, relevant_coverage)
        if r["answerable"]:
            counts["answerable"] += 1
            if status == "answered":
                counts["ans_answered"] += 1
                if r["hit_rank"] is not None and r["hit_rank"] <= 5:
                    counts["ans_hit"] += 1
            elif status == "not_found":
                counts["ans_not_found"] += 1
        elif status == "answered":
            counts["un_answered"] += 1
        elif status == "not_found":
            counts["un_not_found"] += 1
    return counts


def main(paths):
    rows = [json.loads(line) for p in paths for line in open(p, encoding="utf-8") if line.strip()]
    by_mode = {}
    for r in rows:
        by_mode.setdefault(r["mode"], []).append(r)
    grid_answer = [x / 100 for x in range(30, 71, 2)]
    grid_relevant = [x / 100 for x in range(0, 31, 2)]
    for mode, mode_rows in sorted(by_mode.items()):
        best = None
        for a, rel in itertools.product(grid_answer, grid_relevant):
            if rel >= a:
                continue
            c = score(mode_rows, a, rel)
            precise = c["ans_answered"] == 0 or c["ans_hit"] >= 0.9 * c["ans_answered"]
            honest = c["ans_not_found"] <= max(1, c["answerable"] // 20)
            if not (precise and honest):
                continue
            key = (-c["un_answered"], c["ans_answered"], -c["ans_not_found"], c["un_not_found"], -a)
            if best is None or key > best[0]:
                best = (key, a, rel, c)
        if best is None:
            print(f"{mode}: no threshold meets the limits")
            continue
        _, a, rel, c = best
        print(f"{mode}: answer_coverage {a:.2f}, relevant_coverage {rel:.2f} -> {c}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
