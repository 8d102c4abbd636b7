import { Counter, Gauge, type Registry } from "prom-client";
import type { ReadRouting } from "./read-routing.js";

/**
 * The replicas' part of /metrics (contract §17), read from `routing` at each scrape: each replica's lag, whether it
 * serves reads, and the reads it answered; the stale-ok reads the primary answered instead, by reason.
 */
export function registerReplicaMetrics(registry: Registry, routing: ReadRouting): void {
  new Gauge({
    name: "database_replica_lag_seconds",
    help: "How far each replica is behind the primary (0 when it has replayed the primary's position; absent while it does not answer)",
    labelNames: ["replica"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, lagSeconds } of routing.report().replicas) if (lagSeconds !== undefined) this.set({ replica: name }, lagSeconds);
    },
  });
  new Gauge({
    name: "database_replica_usable",
    help: "1 when the replica serves reads (answering, lag within DATABASE_REPLICA_MAX_LAG_MS), else 0",
    labelNames: ["replica"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, usable } of routing.report().replicas) this.set({ replica: name }, usable ? 1 : 0);
    },
  });
  new Counter({
    name: "database_replica_reads_total",
    help: "Statements of stale-ok reads each replica answered",
    labelNames: ["replica"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, reads } of routing.report().replicas) this.inc({ replica: name }, reads);
    },
  });
  new Counter({
    name: "database_stale_reads_on_primary_total",
    help: "Statements of stale-ok reads the primary answered instead of a replica, by reason (none usable; the usable ones behind the caller's writes; the replica failed under it)",
    labelNames: ["reason"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(routing.report().onPrimary)) this.inc({ reason }, count);
    },
  });
}
