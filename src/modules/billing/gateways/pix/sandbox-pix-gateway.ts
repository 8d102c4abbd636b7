import { createHash } from "node:crypto";
import { systemClock, type Clock } from "../../../../platform/clock.js";
import { buildPixBrCode } from "./br-code.js";
import { PixGatewayError } from "./pix-gateway-error.js";
import type { PixCharge, PixChargeInput, PixGateway, PixStatus } from "./pix-gateway.js";
import { qrPngDataUrl } from "./qr-code.js";

/** A random PIX key (EVP) that belongs to no one: sandbox codes parse in banks' apps but pay nobody. */
export const SANDBOX_PIX_KEY = "7d9f0c3e-5b1a-4c8e-9f2d-000000000000";
export const SANDBOX_MERCHANT_NAME = "FITNESS TRAINING SANDBOX";
export const SANDBOX_MERCHANT_CITY = "SAO PAULO";

export interface SandboxPixGatewayOptions {
  clock?: Clock;
}

/**
 * The default PIX gateway (no PIX_API_URL): real BR Codes and QR images for charges nobody can pay, paid
 * only through `simulatePayment`. It answers only for charges it created in this process; the billing
 * tables remain the source of truth.
 */
export class SandboxPixGateway implements PixGateway {
  readonly name = "sandbox" as const;
  readonly canSimulate = true;
  private readonly clock: Clock;
  private readonly charges = new Map<string, PixCharge>();
  /** The charge each idempotency key made (a promise, so concurrent requests with one key share it). */
  private readonly byKey = new Map<string, Promise<PixCharge>>();

  constructor(options: SandboxPixGatewayOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async createCharge(input: PixChargeInput): Promise<PixCharge> {
    let made = this.byKey.get(input.idempotencyKey);
    if (!made) {
      made = this.makeCharge(input);
      this.byKey.set(input.idempotencyKey, made);
      made.catch(() => this.byKey.delete(input.idempotencyKey));
    }
    return { ...(await made) };
  }

  private async makeCharge(input: PixChargeInput): Promise<PixCharge> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
      throw new PixGatewayError("PIX charge amount must be a positive number of cents");
    }
    if (!Number.isSafeInteger(input.expiresInSeconds) || input.expiresInSeconds <= 0) {
      throw new PixGatewayError("PIX charge expiry must be a positive number of seconds");
    }
    // One key, one charge, whichever instance of the service asks (each has its own sandbox, as each reaches the one
    // real gateway): its id and QR code are the key's.
    const txid = createHash("sha256").update(input.idempotencyKey).digest("hex").slice(0, 20);
    const brCode = buildPixBrCode({
      key: SANDBOX_PIX_KEY,
      merchantName: SANDBOX_MERCHANT_NAME,
      merchantCity: SANDBOX_MERCHANT_CITY,
      amountCents: input.amountCents,
      txid,
    });
    const createdAt = this.clock.now();
    const charge: PixCharge = {
      id: `pix_char_${txid}`,
      amountCents: input.amountCents,
      status: "PENDING",
      brCode,
      brCodeBase64: await qrPngDataUrl(brCode),
      expiresAt: new Date(createdAt.getTime() + input.expiresInSeconds * 1000),
      createdAt,
    };
    this.charges.set(charge.id, charge);
    return { ...charge };
  }

  async checkStatus(id: string): Promise<PixStatus | null> {
    const charge = this.charges.get(id);
    return charge ? this.currentStatus(charge) : null;
  }

  /** Pays a PENDING charge; paying a PAID one again is a no-op; an expired or cancelled one is refused. */
  async simulatePayment(id: string): Promise<void> {
    const charge = this.charges.get(id);
    if (!charge) throw new PixGatewayError(`PIX charge ${id} not found`, { status: 404 });
    const status = this.currentStatus(charge);
    if (status === "PAID") return;
    if (status !== "PENDING") throw new PixGatewayError(`PIX charge ${id} is ${status}`, { status: 400 });
    charge.status = "PAID";
  }

  /** The sandbox moves no money (its charges are paid by our records alone), so a refund is only a record. */
  async refundCharge(_id: string, _amountCents: number, idempotencyKey: string): Promise<{ refundId: string }> {
    return { refundId: `pix_refund_${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 20)}` };
  }

  async cancelCharge(id: string): Promise<PixStatus | null> {
    const charge = this.charges.get(id);
    if (!charge) return null;
    if (this.currentStatus(charge) === "PENDING") charge.status = "CANCELLED";
    return this.currentStatus(charge);
  }

  private currentStatus(charge: PixCharge): PixStatus {
    if (charge.status === "PENDING" && this.clock.now().getTime() >= charge.expiresAt.getTime()) return "EXPIRED";
    return charge.status;
  }
}
