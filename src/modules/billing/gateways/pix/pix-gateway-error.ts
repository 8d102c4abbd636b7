/**
 * A PIX gateway refused or failed a call. `status` is the gateway's HTTP status when there was one. The
 * message never carries the API key.
 */
export class PixGatewayError extends Error {
  readonly status?: number;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PixGatewayError";
    this.status = options.status;
  }
}
