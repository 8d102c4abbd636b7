-- Budgets are soft state, counted on every request of a tool's token: no WAL for them (no fsync per request). A crash
-- or a failover forgets what was spent, and every budget starts full again, as a restarted Redis would.
ALTER TABLE "api_budgets" SET UNLOGGED;
