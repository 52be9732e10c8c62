"""The floor dashboard: the host's records in a browser, served over TLS (decision 0029)."""
