#!/usr/bin/env bash
# Real mail servers for tests/mail/test_dovecot_e2e.py: Dovecot (IMAP + LMTP) and OpenSMTPD.
# The test starts private instances of its own (own configs, ports, spool, sockets), so the
# system-wide services the packages may start are stopped here. Idempotent; quick when the
# packages are present already.
set -euo pipefail

packages=(dovecot-imapd dovecot-lmtpd opensmtpd)

missing=()
for p in "${packages[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt_install() { apt-get install -y -q -o Dpkg::Options::=--force-confold "${missing[@]}"; }
  # The package lists may be missing or stale: update them only when the install fails.
  apt_install || { apt-get update -q && apt_install; }
fi

# Stop system-wide instances (by their init scripts' pidfiles; the tests' own instances are
# not touched). Where invoke-rc.d is denied by policy-rc.d they were never started.
for service in dovecot opensmtpd; do
  if [ -x "/etc/init.d/$service" ]; then
    "/etc/init.d/$service" stop >/dev/null 2>&1 || true
  fi
done

echo "mailservers: $(dovecot --version | cut -d' ' -f1) dovecot, $(smtpd -h 2>&1 | sed -n 's/^version: //p')"
