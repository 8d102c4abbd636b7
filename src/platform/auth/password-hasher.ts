import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { AppError } from "../errors.js";

/**
 * bcrypt costs ~80 ms of CPU per hash: it runs on a pool of worker threads so logins never stall the
 * event loop, and the queue is bounded so a flood of logins is refused (503) instead of piling up.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
  close(): Promise<void>;
}

type Job = { op: "hash"; password: string; cost: number } | { op: "compare"; password: string; hash: string };

interface Pending {
  job: Job;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

const bcryptPath = createRequire(import.meta.url).resolve("bcryptjs");

// Evaluated as CommonJS inside each worker; bcryptjs is loaded by absolute path so the cwd does not matter.
const WORKER_SOURCE = `
const bcrypt = require(${JSON.stringify(bcryptPath)});
const { parentPort } = require("node:worker_threads");
parentPort.on("message", async ({ id, job }) => {
  try {
    const result = job.op === "hash" ? await bcrypt.hash(job.password, job.cost) : await bcrypt.compare(job.password, job.hash);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});`;

export interface PasswordHasherOptions {
  cost?: number;
  threads?: number;
  maxQueue?: number;
}

export function createPasswordHasher(options: PasswordHasherOptions = {}): PasswordHasher {
  const cost = options.cost ?? 10;
  const threads = options.threads ?? Math.max(1, availableParallelism());
  // About 1.5 s of queued work at ~80 ms a hash: past that a login is refused at once (503, Retry-After)
  // rather than left waiting longer than a client would.
  const maxQueue = options.maxQueue ?? threads * 16;
  // Threads start when first needed (each is an isolate of its own, ~10 MB): an instance that only serves reads has none.
  const idle: Worker[] = [];
  const busy = new Map<Worker, { id: number; pending: Pending }>();
  let started = 0;
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = () => {
    started++;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on("message", (message: { id: number; result?: string | boolean; error?: string }) => {
      const current = busy.get(worker);
      busy.delete(worker);
      if (current) {
        if (message.error !== undefined) current.pending.reject(new Error(message.error));
        else current.pending.resolve(message.result as string | boolean);
      }
      release(worker);
    });
    worker.on("error", (error) => {
      const current = busy.get(worker);
      busy.delete(worker);
      current?.pending.reject(error);
      started--;
      if (!closed) release(spawn());
    });
    return worker;
  };

  const release = (worker: Worker) => {
    const next = queue.shift();
    if (next) dispatch(worker, next);
    else idle.push(worker);
  };

  const dispatch = (worker: Worker, pending: Pending) => {
    const id = nextId++;
    busy.set(worker, { id, pending });
    worker.postMessage({ id, job: pending.job });
  };

  const run = (job: Job) =>
    new Promise<string | boolean>((resolve, reject) => {
      if (closed) return reject(new Error("password hasher is closed"));
      const pending = { job, resolve, reject };
      const worker = idle.pop() ?? (started < threads ? spawn() : undefined);
      if (worker) return dispatch(worker, pending);
      if (queue.length >= maxQueue) {
        return reject(new AppError(503, "Serviço sobrecarregado. Tente novamente em instantes.", { headers: { "Retry-After": "1" } }));
      }
      queue.push(pending);
    });

  return {
    hash: (password) => run({ op: "hash", password, cost }) as Promise<string>,
    compare: (password, hash) => run({ op: "compare", password, hash }) as Promise<boolean>,
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error("password hasher is closed"));
      await Promise.all([...idle, ...busy.keys()].map((worker) => worker.terminate()));
    },
  };
}
