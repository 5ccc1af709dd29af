// Placeholder until the HTTP server lands.
