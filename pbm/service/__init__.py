"""The game master: storage, lifecycle, ingest of mails, deadlines, NMR and autopilot."""
