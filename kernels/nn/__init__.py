"""NN ops (ops-nn's families: activation, norm, ...): one module per op."""
