"""CV ops (ops-cv's image family: upsampling): one module per op."""
