import type { Db } from "./database.js";

type Hook = () => unknown;
type Report = (error: unknown) => void;
type Begin = (work: (tx: Db) => Promise<unknown>, config?: unknown) => Promise<unknown>;

/** Per open transaction (Drizzle makes a new object per transaction and savepoint): the hooks waiting on its commit. */
const waitingOn = new WeakMap<object, { hooks: Hook[]; report: Report; database: Db }>();
/** Per database: where a hook's failure is reported. */
const reportOf = new WeakMap<object, Report>();

/**
 * Runs `hook` once the transaction `db` belongs to has committed, never when it rolls back; at once when `db` is no
 * transaction. For what must only be said of committed work and must not hold the transaction open while it is said:
 * announcing an event to the other instances (a NOTIFY or a Redis message), waking a worker.
 */
export function afterCommit(db: Db, hook: Hook): void {
  const waiting = waitingOn.get(db);
  if (waiting) waiting.hooks.push(hook);
  else run(hook, reportOf.get(db) ?? (() => undefined));
}

/**
 * Makes the database's transactions keep `afterCommit`'s hooks: a savepoint's hooks join its parent's when it is
 * released and are dropped when it rolls back; the outermost transaction runs them after its commit, each on its own,
 * a failure going to `report`, never to the caller, whose work has committed.
 */
export function keepingAfterCommitHooks(db: Db, report: Report): Db {
  // Once per database, however many app instances share it (tests run two on one database).
  if (!reportOf.has(db)) hookTransactions(db, db, null, (error) => reportOf.get(db)!(error));
  reportOf.set(db, report);
  return db;
}

/** The database a transaction (or savepoint) runs on; the database itself for one. */
export function databaseOf(db: Db): Db {
  return waitingOn.get(db)?.database ?? db;
}

function hookTransactions(owner: Db, database: Db, parentHooks: Hook[] | null, report: Report): void {
  const begin = owner.transaction.bind(owner) as Begin;
  const transaction: Begin = async (work, config) => {
    const hooks: Hook[] = [];
    const result = await begin((tx) => {
      waitingOn.set(tx, { hooks, report, database });
      hookTransactions(tx, database, hooks, report);
      return work(tx);
    }, config);
    if (parentHooks) parentHooks.push(...hooks);
    else for (const hook of hooks) run(hook, report);
    return result;
  };
  owner.transaction = transaction as Db["transaction"];
}

function run(hook: Hook, report: Report): void {
  void Promise.resolve()
    .then(hook)
    .catch((error: unknown) => report(error));
}
