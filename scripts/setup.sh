#!/usr/bin/env bash
# Installs what Evident needs on Debian 12, skipping what is already there.
# Rust (cargo) must already be installed; everything else comes from apt.
set -euo pipefail

need=()
command -v cc >/dev/null 2>&1 || need+=(build-essential)
# Tests compare PDF extraction with poppler's pdftotext and make encrypted PDFs with qpdf.
if [ "${1:-}" = "--test" ]; then
  command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
  command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo (Rust 1.88 or newer) is required; install it with rustup or your package manager" >&2
  exit 1
fi
