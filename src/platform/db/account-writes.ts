import { AsyncLocalStorage } from "node:async_hooks";
import { lockForTransaction, shareLockForTransaction } from "./advisory-locks.js";
import type { Db } from "./database.js";

/** Who the transactions of a unit of work (a request) write for, once it is known. */
interface AccountWrites {
  /** The signed-in caller: each transaction shares their account's lock, then checks they may still write. */
  writer?: { accountId: number; ensureCurrent: (tx: Db) => Promise<void> };
  /** The account being erased: each transaction holds its lock alone. */
  erasing?: number;
  /** The signed-in caller, whoever its transactions write for: what it reads must show what it wrote (read-routing.ts). */
  caller?: Caller;
}

/** The signed-in caller of a unit of work (a request): one object per request, so that what is kept of it lasts no longer. */
export interface Caller {
  readonly accountId: number;
}

const current = new AsyncLocalStorage<AccountWrites>();

/**
 * Runs `work` (a request) with its own record of who writes: until `writingAs` names someone, its transactions are
 * nobody's (sign-up, login, webhooks from gateways), as are transactions outside any such work (jobs).
 */
export function withinAccountWrites<T>(work: () => T): T {
  return current.run({}, work);
}

/**
 * From now on, every transaction of the work under way (see withinAccountWrites) is a write of `accountId`: it first
 * shares the account's lock, then runs `ensureCurrent`, which throws when the session ended meanwhile (the account
 * erased while the write waited for the lock). Outside such work, nothing changes.
 */
export function writingAs(accountId: number, ensureCurrent: (tx: Db) => Promise<void>): void {
  const writes = current.getStore();
  if (!writes) return;
  writes.writer = { accountId, ensureCurrent };
  writes.caller = { accountId };
}

/** The signed-in caller of the work under way (see writingAs), also inside its parts that write for nobody or erase. */
export function currentCaller(): Caller | undefined {
  return current.getStore()?.caller;
}

/**
 * Runs `work`, whose transactions erase the account `accountId`: each first holds the account's lock alone, so it waits
 * for the account's writes under way to commit (and then erases what they wrote), and the account's writes wait for
 * it, then find their session ended. The lock comes first in every transaction that takes it: no deadlock.
 */
export function erasingAccount<T>(accountId: number, work: () => Promise<T>): Promise<T> {
  return current.run({ erasing: accountId, caller: currentCaller() }, work);
}

/**
 * Runs `work` as nobody's write, inside a request too: what records what a gateway did already (a charge made, money
 * taken) is recorded whatever became of the account meanwhile, for the erasure keeps payments and returns late money.
 */
export function apartFromAccountWrites<T>(work: () => Promise<T>): Promise<T> {
  return current.run({ caller: currentCaller() }, work);
}

type Begin = (work: (tx: Db) => Promise<unknown>, config?: unknown) => Promise<unknown>;
const guarded = new WeakSet<object>();

/**
 * Makes the database's transactions (not their savepoints) begin as `writingAs` and `erasingAccount` say, so that an
 * erasure wins against every write of its account (contract §15), whatever module writes. Once per database, however
 * many app instances share it (tests run two on one database).
 */
export function guardingAccountWrites(db: Db): Db {
  if (guarded.has(db)) return db;
  guarded.add(db);
  const begin = db.transaction.bind(db) as Begin;
  const transaction: Begin = (work, config) => {
    const writes = current.getStore();
    if (!writes?.erasing && !writes?.writer) return begin(work, config);
    return begin(async (tx) => {
      if (writes.erasing) await lockForTransaction(tx, "account", writes.erasing);
      else if (writes.writer) {
        await shareLockForTransaction(tx, "account", writes.writer.accountId);
        await writes.writer.ensureCurrent(tx);
      }
      return work(tx);
    }, config);
  };
  db.transaction = transaction as Db["transaction"];
  return db;
}
