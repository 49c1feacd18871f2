#!/usr/bin/env bash
# Installs what is missing, builds Evident, imports the bundled sample documents into
# a demo database, lists them, and answers two sample questions with checked citations.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release --locked -p evident-cli
db="${EVIDENT_DB:-target/demo/evident.sqlite3}"
./target/release/evident --db "$db" import samples
echo
./target/release/evident --db "$db" docs
echo
./target/release/evident --db "$db" ask "单笔报销超过多少需要分管副总审批？"
echo
./target/release/evident --db "$db" ask "How many weeks of parental leave do birthing parents get?"
echo
echo "Database: $db"
echo "Try: ./target/release/evident --db $db ask \"年假可以跨年使用吗？\""
