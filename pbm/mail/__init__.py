"""Mail in and out: MIME to clean text, hygiene, the IMAP poller and the SMTP sender."""
