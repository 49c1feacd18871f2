#!/usr/bin/env bash
# Runs every check: formatting, lints and all tests (unit, integration, the PDF
# reference comparison and the crash test). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
cargo fmt --all -- --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo test --locked --workspace --release
