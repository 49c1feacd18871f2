#!/usr/bin/env bash
# Installs the UI's npm packages (exact versions from package-lock.json) and builds
# ui/dist, which the desktop app embeds. With --check also lints, type-checks and runs
# the UI's unit tests.
set -euo pipefail
cd "$(dirname "$0")/../ui"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
if [ "${1:-}" = "--check" ]; then
  npm run lint
  npm run typecheck
  npm test
fi
npm run build
