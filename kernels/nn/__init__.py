"""The ops of ops-nn (one module per op)."""
