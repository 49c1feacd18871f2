#!/usr/bin/env bash
# Prints the path of the Python that scripts/setup.sh --test gave llama-cpp-python and
# SmolLM2 (the local chat model server the tests start).
set -euo pipefail
echo "${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/llm-venv/bin/python"
