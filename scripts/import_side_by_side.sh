#!/usr/bin/env bash
# `evident import` against scripts/import_baseline.py (jieba + rank_bm25 into SQLite) on
# the same files, side by side: RUNS alternating runs of each, every run a fresh process
# into a fresh database; prints each side's median and the ratio. Called by
# `scripts/bench.sh --import`; the baseline's venv is made once in Evident's cache.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-7}"
EVAL="${EVIDENT_EVAL_DIR:-$(cd .. && pwd)/shared/eval}"
cache="${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}"
venv="$cache/baseline-venv"
if ! "$venv/bin/python" -c 'import jieba, rank_bm25' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q jieba==0.42.1 rank_bm25==0.2.2
fi
cargo build --release --locked -p evident-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/files"
# One folder of plain copies, so both sides read the same files the same way.
for dir in "$EVAL/corpus/zh-laws" "$EVAL/corpus/handbook-sourcegraph" "$EVAL/corpus/handbook-18f"; do
  find "$dir" -type f -name '*.md' ! -name SOURCE.md -exec cp -t "$work/files" {} +
done
cp -r "$EVAL/datasets/cmrc2018-dev/docs" "$work/files/cmrc"
echo "files: $(find "$work/files" -type f | wc -l), $(du -sb "$work/files" | cut -f1) bytes"
now() { date +%s.%N; }
evident_times=()
baseline_times=()
for i in $(seq "$runs"); do
  rm -f "$work"/e.sqlite3* "$work"/b.sqlite3
  t=$(now)
  ./target/release/evident --db "$work/e.sqlite3" import "$work/files" --no-embed --no-remember >/dev/null
  evident_times+=("$t:$(now)")
  t=$(now)
  "$venv/bin/python" scripts/import_baseline.py --db "$work/b.sqlite3" "$work/files" 2>/dev/null
  baseline_times+=("$t:$(now)")
done
python3 - "${evident_times[*]}" "${baseline_times[*]}" <<'PY'
import statistics, sys
def spans(arg):
    return [float(end) - float(start) for start, end in (x.split(':') for x in arg.split())]
e, b = spans(sys.argv[1]), spans(sys.argv[2])
print(f"evident import:        median {statistics.median(e):.3f} s  (runs {', '.join(f'{x:.2f}' for x in sorted(e))})")
print(f"jieba + rank_bm25:     median {statistics.median(b):.3f} s  (runs {', '.join(f'{x:.2f}' for x in sorted(b))})")
print(f"ratio (baseline / evident): {statistics.median(b) / statistics.median(e):.1f}x")
PY
