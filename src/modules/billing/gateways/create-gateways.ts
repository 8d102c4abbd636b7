import type { Clock } from "../../../platform/clock.js";
import type { Config } from "../../../platform/config.js";
import type { CardGateway } from "./card/card-gateway.js";
import { SandboxCardGateway } from "./card/sandbox-card-gateway.js";
import { HttpPixGateway } from "./pix/http-pix-gateway.js";
import type { PixGateway } from "./pix/pix-gateway.js";
import { SandboxPixGateway } from "./pix/sandbox-pix-gateway.js";

export interface Gateways {
  card: CardGateway;
  pix: PixGateway;
}

/**
 * The payment gateways the configuration names: Stripe and the PIX HTTP API when keyed, sandboxes otherwise. The Stripe
 * adapter, and the SDK with it, is loaded only when STRIPE_SECRET_KEY is set.
 */
export async function createGateways(config: Config, clock: Clock): Promise<Gateways> {
  return {
    card: config.stripeSecretKey
      ? new (await import("./card/stripe-card-gateway.js")).StripeCardGateway(config.stripeSecretKey, config.stripeApiBase)
      : new SandboxCardGateway(() => clock.now()),
    pix:
      config.pixApiUrl && config.pixApiKey
        ? new HttpPixGateway({ apiUrl: config.pixApiUrl, apiKey: config.pixApiKey, devMode: config.pixDevMode })
        : new SandboxPixGateway({ clock }),
  };
}
