"""Math ops (ops-math's ``math/`` family): one module per op."""
