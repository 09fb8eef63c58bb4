"""API routes (filled in by the API work)."""
