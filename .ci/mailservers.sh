#!/usr/bin/env bash
# Real mail servers for tests/mail/test_dovecot_e2e.py: Dovecot (IMAP + LMTP) and OpenSMTPD.
# The test starts private instances of its own (own configs, ports, spool, sockets), so the
# system-wide services the packages may start are stopped here. Idempotent; quick when the
# packages are present already.
set -euo pipefail

bash "$(dirname "$0")/debian-packages.sh" --with-recommends dovecot-imapd dovecot-lmtpd opensmtpd

# Stop system-wide instances (by their init scripts' pidfiles; the tests' own instances are
# not touched). Where invoke-rc.d is denied by policy-rc.d they were never started.
for service in dovecot opensmtpd; do
  if [ -x "/etc/init.d/$service" ]; then
    "/etc/init.d/$service" stop >/dev/null 2>&1 || true
  fi
done

echo "mailservers: $(dovecot --version | cut -d' ' -f1) dovecot, $(smtpd -h 2>&1 | sed -n 's/^version: //p')"
