-- The trace a delivery belongs to (docs/architecture.md "Traces"): the W3C trace context of the
-- dispatcher's `process` span for the event (of the Ping call for a ping), so every attempt, even a
-- retry hours later, is a span of the trace that began with the payment. NULL when telemetry is off.
ALTER TABLE deliveries ADD COLUMN traceparent text;
ALTER TABLE deliveries ADD COLUMN tracestate text;
