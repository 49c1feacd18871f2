#!/usr/bin/env bash
# Installs what is missing, builds Evident (CLI and desktop app), imports the bundled
# sample documents into a demo database, answers two sample questions on the command
# line, and then opens the desktop app on that database when a display is available.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/ui.sh
cargo build --release --locked -p evident-cli -p evident-app
db="${EVIDENT_DB:-$PWD/target/demo/evident.sqlite3}"
./target/release/evident --db "$db" import samples
echo
./target/release/evident --db "$db" docs
echo
./target/release/evident --db "$db" ask "单笔报销超过多少需要分管副总审批？"
echo
./target/release/evident --db "$db" ask "How many weeks of parental leave do birthing parents get?"
echo
echo "Database: $db"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "Opening the desktop app…"
  EVIDENT_DB="$db" exec ./target/release/evident-app
else
  echo "No display: to open the desktop app later, run  EVIDENT_DB=$db ./target/release/evident-app"
fi
