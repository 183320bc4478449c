#!/usr/bin/env bash
# Install Debian's chromium (and a small Bengali font, so Bengali text renders in screenshots)
# for the report's headless-browser test, tests/report/test_browser.py.
# Idempotent and quiet: does nothing when both are already installed. Needs root or sudo.
set -euo pipefail
FONT=fonts-lohit-beng-bengali
if [ -x /usr/bin/chromium ] && dpkg -s "$FONT" >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install_chromium.sh: need root or sudo to apt-get install chromium" >&2
    exit 1
  fi
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
# Output only on failure: apt is chatty even with -qq.
if ! { $SUDO apt-get update -qq && \
       $SUDO apt-get install -y -qq --no-install-recommends chromium "$FONT"; } >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
