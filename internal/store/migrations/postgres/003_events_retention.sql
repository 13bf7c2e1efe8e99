-- Telemetry retention deletes events by when they occurred (internal/telemetry Prune).
CREATE INDEX events_occurred_at ON events (occurred_at);
