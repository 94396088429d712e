"""Private Dovecot + OpenSMTPD on 127.0.0.1 for the end-to-end tests: the code lives in
`pbm.mail.realservers` (`pbm bench mail --dovecot` uses it too); this module re-exports it."""

from pbm.mail.realservers import DOMAIN, MAIL_USER, MailServers, available, free_port, start

__all__ = ["DOMAIN", "MAIL_USER", "MailServers", "available", "free_port", "start"]
