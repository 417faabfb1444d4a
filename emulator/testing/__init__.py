"""Helpers for checking op results: the precision standard of spec/ops.md section 3."""
