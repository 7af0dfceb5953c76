"""The front end: load, resolve, schema, check and build a ruleset, with diagnostics."""
