#!/usr/bin/env bash
# Debian's chromium (and fonts for it to draw text with) for tests/reports/test_browser.py:
# the HTML round report in a real headless browser. Idempotent; quick when the packages are
# present already.
set -euo pipefail

packages=(chromium fonts-liberation fonts-dejavu-core)

missing=()
for p in "${packages[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt_install() {
    apt-get install -y -q --no-install-recommends -o Dpkg::Options::=--force-confold \
      "${missing[@]}"
  }
  # The package lists may be missing or stale: update them only when the install fails.
  apt_install || { apt-get update -q && apt_install; }
fi

# Debian's wrapper script prints a harmless shell warning on stderr; keep the version line.
echo "chromium: $(chromium --version 2>/dev/null | head -n 1)"
