"""NN ops (ops-nn's families: index, norm, activation ...): one module per op."""
