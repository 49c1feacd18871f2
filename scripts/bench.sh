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
# Held-out halves (the even questions, the claims' report halves, the held-out claim
# set) are printed only with --final, and each such run is logged in
# target/bench/final-runs.log (when, which commit, with what): a number read from a
# held-out half is read once per change, not tuned against.
#
# --memory measures the window instead (tests/e2e/memory.py under Xvfb): the app's own
# process tree idle, after 20 citation clicks, 20 s later, and while the built-in model
# embeds the library; written to target/bench/memory.json.
#
# --import times `evident import` (keyword index, no vectors) against the import a
# popular tutorial writes (scripts/import_baseline.py: jieba + rank_bm25 into SQLite),
# side by side, alternating, each a fresh process, on the same files: the corpus's
# Markdown and CMRC 2018's passages (about 2.2 MB).
#
# usage: scripts/bench.sh [--quick] [--builtin] [--final] | scripts/bench.sh --memory
#        | scripts/bench.sh --import
#   --quick: colloquial-dev only; --final: the held-out halves too
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
builtin=false
final=false
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    --builtin) builtin=true ;;
    --final) final=true ;;
    --memory)
      scripts/setup.sh --test
      cargo build --release --locked -p evident-app -p evident-cli
      mkdir -p target/bench
      EVIDENT_MODELS="${EVIDENT_MODELS:-${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/models}" \
        xvfb-run -a -s "-screen 0 1400x900x24" /usr/bin/python3 tests/e2e/memory.py \
        "$PWD/target/release/evident-app" "$PWD/target/release/evident" target/bench/memory.json
      exit 0 ;;
    --import)
      scripts/import_side_by_side.sh
      exit 0 ;;
    *) echo "usage: scripts/bench.sh [--quick] [--builtin] [--final] | scripts/bench.sh --memory | scripts/bench.sh --import" >&2; exit 2 ;;
  esac
done
halves=(odd)
claim_splits=(tune)
if $final; then
  halves=(odd even)
  claim_splits=(tune report)
fi
scripts/setup.sh --test
cargo build --release --locked -p evident-cli -p evident-bench
evident=./target/release/evident
bench=./target/release/evident-bench
EVAL="${EVIDENT_EVAL_DIR:-$(cd .. && pwd)/shared/eval}"
MODELS="${EVIDENT_MODELS:-${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/models}"
out=target/bench
mkdir -p "$out"
if $final; then
  printf '%s\t%s%s\tscripts/bench.sh %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    "$(git diff --quiet 2>/dev/null || echo '+changes')" "$*" >>"$out/final-runs.log"
  echo "== a final run: held-out halves included (logged in $out/final-runs.log)"
fi

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
  for half in "${halves[@]}"; do
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

# The grounding check on hand-written claims: the sets it was tuned on (their tune
# halves), the blind set written without looking at the check, and (--final) the
# report halves and the held-out set.
for claims in grounding-claims.jsonl grounding-claims-tune2.jsonl grounding-claims-blind.jsonl; do
  for split in "${claim_splits[@]}"; do
    echo "== grounding: $claims ($split half)"
    "$bench" grounding --claims-only --claims "crates/evident-bench/bench/$claims" --split "$split"
  done
done
if $final; then
  echo "== grounding: grounding-claims-heldout.jsonl (held out)"
  "$bench" grounding --claims-only --claims crates/evident-bench/bench/grounding-claims-heldout.jsonl
fi

# Scanned pages: corpus pages made into scans at run time (clean and noisy), read by
# OCR against their own text layer.
echo "== OCR on scans made from the corpus PDFs"
"$bench" ocr --eval-dir "$EVAL"

for name in policyqa-test cmrc2018-dev drcd-dev; do
  echo "== $name (keyword)"
  "$bench" eval --questions "$EVAL/datasets/$name/questions.jsonl" --modes keyword --no-embed \
    --k 1,5,10
done
echo "== query latency at 50,000 chunks (768-wide vectors, without the server's time)"
"$bench" query --eval-dir "$EVAL"
