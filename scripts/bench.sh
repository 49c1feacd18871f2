#!/usr/bin/env bash
# The benchmarks ARCHITECTURE.md reports, with the benchmark embeddings model
# EmbeddingGemma-300M served on loopback by llama-cpp-python (both installed by
# scripts/setup.sh --test): retrieval, outcomes and answers on colloquial-dev and our
# own question set (each half apart: odd = calibration, even = held out), keyword
# retrieval on PolicyQA, CMRC and DRCD, and query latency at 50,000 chunks.
#
# Embedding the corpus takes EmbeddingGemma about 20 minutes on two cores; the vectors
# are kept in target/bench/ (delete it to measure that again). All of it: about an hour.
#
# --builtin measures the same model run by Evident itself (the built-in model, no
# server): its own database and vectors, then `evident-bench embed` (load time, question
# p50/p95, passages/s, memory while embedding and after the worker ends).
#
# usage: scripts/bench.sh [--quick] [--builtin]   (--quick: colloquial-dev only)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
builtin=false
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    --builtin) builtin=true ;;
    *) echo "usage: scripts/bench.sh [--quick] [--builtin]" >&2; exit 2 ;;
  esac
done
scripts/setup.sh --test
cargo build --release --locked -p evident-cli -p evident-bench
evident=./target/release/evident
bench=./target/release/evident-bench
EVAL="${EVIDENT_EVAL_DIR:-$(cd .. && pwd)/shared/eval}"
MODELS="${EVIDENT_MODELS:-${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/models}"
out=target/bench
mkdir -p "$out"

if $builtin; then
  gguf="$MODELS/embeddinggemma-300m-q8_0.gguf"
  embed=(--embed-gguf "$gguf")
  db="$out/builtin.sqlite3"
  embed_json="$out/embed-builtin.json"
  label="EmbeddingGemma-300M (built-in)"
else
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$(scripts/llm.sh)" -m llama_cpp.server --model "$MODELS/embeddinggemma-300m-q8_0.gguf" \
    --model_alias embeddinggemma-300m --embedding true --n_ctx 512 --n_batch 512 --n_ubatch 512 \
    --n_threads 2 --n_threads_batch 2 --host 127.0.0.1 --port "$port" --verbose False \
    >"$out/server.log" 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 600); do
    curl -fsS "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1 && break
    sleep 0.1
  done
  embed=(--embed-url "http://127.0.0.1:$port/v1" --embed-model embeddinggemma-300m)
  db="$out/corpus.sqlite3"
  embed_json="$out/embed.json"
  label="EmbeddingGemma-300M"
fi

# The Markdown sets colloquial-dev and our own questions are about (SOURCE.md is
# bookkeeping, not a document).
if [ ! -f "$db" ]; then
  find "$EVAL/corpus/zh-laws" "$EVAL/corpus/handbook-sourcegraph" "$EVAL/corpus/handbook-18f" \
    -type f ! -name SOURCE.md -print0 | xargs -0 "$evident" --db "$db" import --no-remember --no-embed >/dev/null
  echo "== embedding the corpus with $label"
  "$evident" --db "$db" embed "${embed[@]}" --json | tee "$embed_json"
fi

for set in "$EVAL/datasets/colloquial-dev/questions.jsonl" crates/evident-bench/bench/answers-own.jsonl; do
  for half in odd even; do
    echo "== $(basename "$(dirname "$set")")/$(basename "$set"), $half half"
    "$bench" --db "$db" eval --questions "$set" --half "$half" --modes keyword,dense,hybrid \
      --answers "${embed[@]}"
  done
done
if $builtin; then
  echo "== the built-in model: load, question latency, passages/s, memory"
  "$bench" embed "${embed[@]}" --questions 100 --passages 64
fi
$quick && exit 0

for name in policyqa-test cmrc2018-dev drcd-dev; do
  echo "== $name (keyword)"
  "$bench" eval --questions "$EVAL/datasets/$name/questions.jsonl" --modes keyword --no-embed \
    --k 1,5,10
done
echo "== query latency at 50,000 chunks (768-wide vectors, without the server's time)"
"$bench" query --eval-dir "$EVAL"
