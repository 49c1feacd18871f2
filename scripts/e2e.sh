#!/usr/bin/env bash
# End-to-end tests of the real app window under Xvfb (tests/e2e/test_app.py), driven
# over WebDriver by tauri-driver. Screenshots and timings land in test-output/e2e/.
set -euo pipefail
cd "$(dirname "$0")/.."
# A missing tool is a failure, not a skip: a green run must mean the window was tested.
for tool in xvfb-run xdotool WebKitWebDriver; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "e2e: FAILED — $tool is not installed; run scripts/setup.sh --test to install the test tools" >&2
    exit 1
  fi
done
command -v tauri-driver >/dev/null 2>&1 || cargo install tauri-driver --version '^2' --locked
# The WebDriver client: Debian's python3-selenium (setup.sh --test), or pip's.
PY=python3
if ! $PY -c "import selenium" 2>/dev/null; then
  if /usr/bin/python3 -c "import selenium" 2>/dev/null; then
    PY=/usr/bin/python3
  else
    $PY -m pip install --quiet 'selenium>=4.10,<5'
  fi
fi
cargo build --release --locked -p evident-app -p evident-cli -p evident-bench
xvfb-run -a -s "-screen 0 1400x900x24" \
  $PY tests/e2e/test_app.py "$PWD/target/release/evident-app" "$PWD/target/release/evident"
