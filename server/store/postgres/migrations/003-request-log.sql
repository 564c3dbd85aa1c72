-- Nothing to do on PostgreSQL. On SQLite this migration drops the request log that a first
-- version of 001 kept in the sandbox's file, since it moved to a file of its own (D48). On
-- PostgreSQL the request log is a table of this same database, made by the history of
-- migrations/request-log/: dropping it here would drop the log that history made.
SELECT 1;
