"""The runtime's own state machine: devices, contexts, streams, events and who owns them."""
