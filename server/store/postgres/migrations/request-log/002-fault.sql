-- The fault injected into the request (D51): RequestLogFault of spec/sandbox.yaml as JSON,
-- or null for a request that was not faulted.
ALTER TABLE request_log ADD COLUMN fault text COLLATE "C";
