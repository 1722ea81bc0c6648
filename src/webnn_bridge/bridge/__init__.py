"""webnn-bridge host: the Python WebNN object model (api), the sans-I/O protocol and sessions,
and the thin websocket/HTTP server."""
