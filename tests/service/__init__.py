"""Service tests: whole games by mail, mail edge cases, GM levers, crashes and racing workers,
each on SQLite and on PostgreSQL."""
