"""Mail servers for `pbm demo`, `pbm bench` and the end-to-end tests, not part of the service:
`loopback` runs pymap (IMAP) and aiosmtpd (SMTP) in process on free loopback ports;
`realservers` runs private Dovecot and OpenSMTPD instances (root and the Debian packages).

The service never imports this package; it reaches the mail world only through
`pbm/mail/transport.py`.
"""
