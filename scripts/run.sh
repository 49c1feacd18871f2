#!/usr/bin/env bash
# Installs what is missing, builds Evident and imports the bundled sample documents
# into a demo database, then lists what was imported.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release --locked -p evident-cli
db="${EVIDENT_DB:-target/demo/evident.sqlite3}"
./target/release/evident --db "$db" import samples
echo
./target/release/evident --db "$db" docs
echo
echo "Database: $db  (try: ./target/release/evident --db $db chunks 1)"
