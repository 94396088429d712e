#!/usr/bin/env bash
# Debian's chromium (and fonts for it to draw text with) for tests/reports/test_browser.py:
# the HTML round report in a real headless browser.
set -euo pipefail
bash "$(dirname "$0")/debian-packages.sh" chromium fonts-liberation fonts-dejavu-core

# Debian's wrapper script prints a harmless shell warning on stderr; keep the version line.
echo "chromium: $(chromium --version 2>/dev/null | head -n 1)"
