#!/usr/bin/env bash
# Install the Debian packages named on the command line that are not installed yet.
# Idempotent; quick when they are all present. `--with-recommends` first installs the
# packages' recommended ones too.
set -euo pipefail

recommends=(--no-install-recommends)
if [[ "${1:-}" == "--with-recommends" ]]; then
  recommends=()
  shift
fi

missing=()
for p in "$@"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt_install() {
    apt-get install -y -q "${recommends[@]}" -o Dpkg::Options::=--force-confold "${missing[@]}"
  }
  # The package lists may be missing or stale: update them only when the install fails.
  apt_install || { apt-get update -q && apt_install; }
fi
