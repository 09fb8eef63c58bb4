"""Benchmarks and their data seeding: their own app around ``create_app()``; never imported by the product."""
