/** The PIX gateway behind one interface: the sandbox (real BR Code + QR) or the PIX gateway's HTTP API. */
export type PixStatus = "PENDING" | "PAID" | "EXPIRED" | "CANCELLED";

export interface PixCharge {
  /** The gateway's transaction id (the `data.id` of its events). */
  id: string;
  amountCents: number;
  status: PixStatus;
  /** EMV "copia e cola" payload with its CRC16. */
  brCode: string;
  /** `data:image/png;base64,...` QR code of brCode. */
  brCodeBase64: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface PixChargeInput {
  amountCents: number;
  description: string;
  /** Our reference (the subscription id), carried to the gateway where it allows. */
  reference: string;
  customer: { name: string; email: string };
  expiresInSeconds: number;
  /** Sent as the request's idempotency key: asking again with the same key answers the same charge. */
  idempotencyKey: string;
}

export interface PixGateway {
  readonly name: "sandbox" | "http";
  /** True when a payment can be simulated (sandbox, or the HTTP gateway in dev mode). */
  readonly canSimulate: boolean;
  createCharge(input: PixChargeInput): Promise<PixCharge>;
  /** The gateway's current status of a charge; null when it does not know the id. */
  checkStatus(id: string): Promise<PixStatus | null>;
  /** Marks a charge paid at the gateway (only when canSimulate). */
  simulatePayment(id: string): Promise<void>;
  /**
   * Cancels a charge so it can no longer be paid; answers its status afterwards (CANCELLED, or PAID / EXPIRED when it
   * was past canceling), null when the gateway does not know the id.
   */
  cancelCharge(id: string): Promise<PixStatus | null>;
  /** Returns a paid charge's money to the payer ("devolução"), once per idempotency key; answers the refund's id. */
  refundCharge(id: string, amountCents: number, idempotencyKey: string): Promise<{ refundId: string }>;
}
