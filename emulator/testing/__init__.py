"""Helpers for checking op results: opbase's op precision standard."""
