"""Taking a game away (JSON export, CSV deal log) and bringing one back (import)."""
