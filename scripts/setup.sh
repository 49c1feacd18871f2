#!/usr/bin/env bash
# Installs what Evident needs on Debian 12, skipping what is already there.
# Rust (cargo) must already be installed; everything else comes from apt.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v cc >/dev/null 2>&1 || need+=(build-essential)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# The desktop app: WebKitGTK for Tauri's web view, a CJK font so Chinese is not boxes.
have_pkg libwebkit2gtk-4.1-dev || need+=(libwebkit2gtk-4.1-dev)
have_pkg fonts-wqy-microhei || need+=(fonts-wqy-microhei)
# The UI is built with Vite (Node.js and npm from Debian).
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
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
