#!/usr/bin/env bash
# Installs what is missing, builds Evident (CLI and desktop app), imports the bundled
# sample documents into a demo database with meaning search by the built-in model
# (EmbeddingGemma-300M run by Evident itself: no server), answers sample questions on
# the command line, and then opens the desktop app on that database when a display is
# available.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/ui.sh
cargo build --release --locked -p evident-cli -p evident-app
db="${EVIDENT_DB:-$PWD/target/demo/evident.sqlite3}"
mkdir -p "$(dirname "$db")"
# The demo's models folder holds the cached EmbeddingGemma (setup.sh assembled it); a
# real install looks in ~/.local/share/app.evident.desktop/models and Ollama's store.
models="${EVIDENT_MODELS:-${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/models}"
export EVIDENT_MODELS_DIR="$PWD/target/demo/models"
mkdir -p "$EVIDENT_MODELS_DIR"
if [ -f "$models/embeddinggemma-300m-q8_0.gguf" ]; then
  ln -sf "$models/embeddinggemma-300m-q8_0.gguf" "$EVIDENT_MODELS_DIR/"
fi
evident() { ./target/release/evident --db "$db" "$@"; }

# No embeddings server: the built-in model is found in the models folder.
evident config --embed-gguf auto
evident import samples
echo
evident docs
echo
evident ask "单笔报销超过多少需要分管副总审批？"
echo
evident ask "How many weeks of parental leave do birthing parents get?"
echo
# An everyday question that shares few words with the policy: an amount (三万块) that
# falls in one tier, and who approves it.
evident ask "我花了三万块招待客户，这笔钱要谁批准才能报？"
echo
echo "The same question with keyword search only:"
evident ask "我花了三万块招待客户，这笔钱要谁批准才能报？" --no-embed
echo
echo "Database: $db"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "Opening the desktop app…"
  EVIDENT_DB="$db" ./target/release/evident-app
else
  echo "No display: to open the desktop app later, run"
  echo "  EVIDENT_DB=$db EVIDENT_MODELS_DIR=$EVIDENT_MODELS_DIR ./target/release/evident-app"
fi
