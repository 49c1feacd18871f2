#!/usr/bin/env bash
# Rebuilds the learned answer-sentence ranker and outcome model
# (crates/evident-index/models/answers.json) and its report (answers-report.md) from the
# public question sets in ../shared/eval, seeded and reproducible:
#   1. `evident-bench learn rows`: each set imported as a library (vectors by the built-in
#      EmbeddingGemma-300M, kept in ~/.cache/evident/learn/vectors.sqlite3 keyed by
#      model and text: most of an hour the first time on two cores, minutes after), every
#      question asked through Evident's own search, every candidate sentence written
#      down with its features (target/learn/rows-*.jsonl.gz);
#   2. `evident-bench learn fit`: the models fitted on the training part, calibrated on the
#      everyday sets' odd halves, reported on the rest.
# `--fit-only` repeats step 2 on the rows already written.
set -euo pipefail
cd "$(dirname "$0")/.."
MODELS="${EVIDENT_MODELS:-${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/models}"
GGUF="$MODELS/embeddinggemma-300m-q8_0.gguf"
if [ "${1:-}" != "--fit-only" ]; then
  if [ ! -f "$GGUF" ]; then
    echo "error: $GGUF is missing; run scripts/setup.sh first" >&2
    exit 1
  fi
  cargo build --release --locked -p evident-cli -p evident-bench
  ./target/release/evident-bench --db target/learn/settings-only.sqlite3 learn rows --embed-gguf "$GGUF"
fi
cargo build --release --locked -p evident-cli -p evident-bench
./target/release/evident-bench learn fit
