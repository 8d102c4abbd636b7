import { afterAll, describe, expect, it } from "vitest";
import { createPasswordHasher } from "../../src/platform/auth/password-hasher.js";
import { AppError } from "../../src/platform/errors.js";

const hasher = createPasswordHasher({ cost: 8, threads: 1, maxQueue: 2 });
afterAll(() => hasher.close());

describe("password hasher pool", () => {
  it("hashes with bcrypt off the main thread and verifies only the right password", async () => {
    const hash = await hasher.hash("segredo1");
    expect(hash).toMatch(/^\$2[aby]\$08\$/);
    expect(await hasher.compare("segredo1", hash)).toBe(true);
    expect(await hasher.compare("segredo2", hash)).toBe(false);
  });

  it("keeps the event loop free while hashing", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await Promise.all([hasher.hash("a-password"), hasher.hash("b-password")]);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });

  it("refuses work past its queue bound with 503 and Retry-After instead of queueing it", async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => hasher.hash(`password-${i}`)));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    // One running on the single thread, two queued: the other five are refused at once.
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(refused).toHaveLength(5);
    for (const { reason } of refused) {
      expect(reason).toBeInstanceOf(AppError);
      expect(reason).toMatchObject({ status: 503, headers: { "Retry-After": "1" } });
    }
  });
});
