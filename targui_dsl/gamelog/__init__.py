"""Game logs: events from the engine, the log file, its header, reading and replaying."""
