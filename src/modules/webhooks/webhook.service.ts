import { z } from "zod";
import type { Actor, UserActor } from "../../platform/auth/actor.js";
import { requireUser } from "../../platform/auth/actor.js";
import { requireOwnerOrAdmin } from "../access/ownership.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { notFound, validationError } from "../../platform/errors.js";
import { toPage, type ListQuery, type Page, type PageRequest } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import { newEventId } from "../events/emit.js";
import { urlProblem, type UrlPolicy } from "./webhook-address.js";
import { newWebhookSecret, type SecretBox } from "./webhook-secrets.js";
import { toDeliveryDto, toEndpointDto, type CreatedEndpointDto, type DeliveryDto, type EndpointDto, endpointSchema } from "./webhook.dto.js";
import type { EndpointChangeInput, EndpointInput } from "./webhook.inputs.js";
import { webhookRepository, type EndpointRow } from "./webhook.repository.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import type { EventSubscriber } from "../events/emit.js";

export const ENDPOINT_NOT_FOUND = "Endpoint não encontrado";

/** The app whose token signed the call, or null (a login or a personal token). */
const appOf = (caller: UserActor) => (caller.credential.kind === "app" ? caller.credential.clientId : null);
export const DELIVERY_NOT_FOUND = "Entrega não encontrada";
/** After a rotation the previous secret signs alongside the new one this long (contract §14.1). */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60_000;

export interface WebhookServiceDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  urlPolicy: UrlPolicy;
  /** Asks the delivery job to run soon, in `tx` (at its commit), as a committed event does: no wait for its poll. */
  deliverSoon(tx: Db): Promise<void>;
}

/** What the data export holds of this module (contract §15). */
const webhookExport = z.object({ webhookEndpoints: z.array(endpointSchema).describe("The user's webhook endpoints (no secrets)") });

/**
 * Webhook endpoints (contract §14.1): any signed-in user registers its own; the owner and administrators read and
 * change one, administrators list all. Deliveries are made by WebhookDeliveryWorker.
 */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  /** A user's webhook endpoints, without their secrets (contract §15); erasure deletes them and their deliveries. */
  readonly personalData: PersonalDataHolder<typeof webhookExport> = {
    exportSections: webhookExport,
    exportPersonalData: async (db, userId) => ({ webhookEndpoints: (await webhookRepository.endpointsOfUser(db, userId)).map(toEndpointDto) }),
    erasePersonalData: async (tx, userId) => {
      await webhookRepository.deleteEndpointsOf(tx, userId);
    },
  };

  async create(actor: Actor, readInput: InputReader<EndpointInput>): Promise<CreatedEndpointDto> {
    const caller = requireUser(actor);
    const input = readInput();
    await this.ensureUrlAllowed(input.url);
    const secret = newWebhookSecret();
    const now = this.deps.clock.now();
    // In a transaction of its own, as every write of the account: an erasure under way wins over it (contract §15).
    const row = await this.deps.db.transaction((tx) =>
      webhookRepository.insertEndpoint(tx, {
        userId: caller.id,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        sealedSecret: this.deps.secrets.seal(secret),
        clientId: appOf(caller),
        createdAt: now,
        updatedAt: now,
      }),
    );
    return { ...toEndpointDto(row), secret };
  }

  /** The caller's endpoints; an administrator's listing has everyone's. */
  async list(actor: Actor, readQuery: InputReader<ListQuery<unknown>>): Promise<Page<EndpointDto>> {
    const caller = requireUser(actor);
    const { page: request } = readQuery();
    const app = appOf(caller);
    const everyone = caller.isAdmin && app === null;
    const { rows, total } = await webhookRepository.listEndpoints(this.deps.db, everyone ? undefined : caller.id, request, app ?? undefined);
    return toPage(rows.map(toEndpointDto), total, request);
  }

  async get(actor: Actor, id: number): Promise<EndpointDto> {
    return toEndpointDto(await this.loadOwned(requireUser(actor), id));
  }

  async update(actor: Actor, id: number, readInput: InputReader<EndpointChangeInput>): Promise<EndpointDto> {
    const caller = requireUser(actor);
    await this.loadOwned(caller, id);
    const input = readInput();
    if (input.url !== undefined) await this.ensureUrlAllowed(input.url);
    const now = this.deps.clock.now();
    const row = await webhookRepository.updateEndpoint(this.deps.db, id, {
      ...(input.url !== undefined && { url: input.url }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.description !== undefined && { description: input.description }),
      // Turned back on: its run of failures starts afresh.
      ...(input.enabled !== undefined && { enabled: input.enabled, ...(input.enabled && { failingSince: null }) }),
      updatedAt: now,
    });
    if (!row) throw notFound(ENDPOINT_NOT_FOUND);
    return toEndpointDto(row);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.loadOwned(requireUser(actor), id);
    await webhookRepository.deleteEndpoint(this.deps.db, id);
  }

  /** A new secret; the current one becomes the previous one and keeps signing for PREVIOUS_SECRET_MS. */
  async rotateSecret(actor: Actor, id: number): Promise<{ secret: string }> {
    const endpoint = await this.loadOwned(requireUser(actor), id);
    const secret = newWebhookSecret();
    const now = this.deps.clock.now();
    await webhookRepository.updateEndpoint(this.deps.db, id, {
      sealedSecret: this.deps.secrets.seal(secret),
      sealedPreviousSecret: endpoint.sealedSecret,
      previousSecretUntil: new Date(now.getTime() + PREVIOUS_SECRET_MS),
      updatedAt: now,
    });
    return { secret };
  }

  /** Queues a `ping` event to this endpoint alone, due now, and wakes the delivery job. */
  async test(actor: Actor, id: number): Promise<DeliveryDto> {
    const endpoint = await this.loadOwned(requireUser(actor), id);
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const event = await webhookRepository.insertEvent(tx, {
        publicId: newEventId(),
        type: "ping",
        subjectUserIds: [endpoint.userId],
        data: { endpointId: endpoint.id, url: endpoint.url },
        createdAt: now,
        // Addressed to its endpoint here: nothing for the dispatcher to fan out.
        dispatchedAt: now,
      });
      const delivery = await webhookRepository.insertDelivery(tx, { endpointId: endpoint.id, eventId: event.id, nextAttemptAt: now, createdAt: now });
      await this.deps.deliverSoon(tx);
      return toDeliveryDto(delivery, event);
    });
  }

  async listDeliveries(actor: Actor, id: number, readPage: InputReader<PageRequest>): Promise<Page<DeliveryDto>> {
    await this.loadOwned(requireUser(actor), id);
    const request = readPage();
    const { rows, total } = await webhookRepository.listDeliveries(this.deps.db, id, request);
    return toPage(
      rows.map((row) => toDeliveryDto(row.delivery, { publicId: row.eventPublicId, type: row.eventType })),
      total,
      request,
    );
  }

  /**
   * Queues a delivery again, due now, whatever its state, and wakes the delivery job to attempt it once more. Asked
   * while an attempt is under way, that attempt is the retry (webhookRepository.requeueDelivery).
   */
  async retryDelivery(actor: Actor, id: number, deliveryId: number): Promise<DeliveryDto> {
    await this.loadOwned(requireUser(actor), id);
    const delivery = await webhookRepository.findDelivery(this.deps.db, id, deliveryId);
    if (!delivery) throw notFound(DELIVERY_NOT_FOUND);
    const now = this.deps.clock.now();
    // The delivery may go between the two (its endpoint deleted, its event pruned): then it is 404, never a 500.
    const row = await this.deps.db.transaction(async (tx) => {
      await webhookRepository.requeueDelivery(tx, deliveryId, now);
      await this.deps.deliverSoon(tx);
      return webhookRepository.findDeliveryWithEvent(tx, deliveryId);
    });
    if (!row) throw notFound(DELIVERY_NOT_FOUND);
    return toDeliveryDto(row.delivery, { publicId: row.eventPublicId, type: row.eventType });
  }

  /** The data of these recorded events, by id (no access check: the asking module, live updates, has its own). */
  async eventDataOf(ids: readonly number[]): Promise<Map<number, unknown>> {
    const rows = await webhookRepository.eventData(this.deps.db, ids);
    return new Map(rows.map((row) => [row.id, row.data]));
  }

  private async loadOwned(caller: UserActor, id: number): Promise<EndpointRow> {
    const endpoint = await webhookRepository.findEndpoint(this.deps.db, id);
    const app = appOf(caller);
    // An app's token reaches only the endpoints that app registered for its user.
    if (!endpoint || (app !== null && (endpoint.clientId !== app || endpoint.userId !== caller.id))) throw notFound(ENDPOINT_NOT_FOUND);
    requireOwnerOrAdmin(caller, endpoint.userId);
    return endpoint;
  }

  private async ensureUrlAllowed(url: string): Promise<void> {
    const problem = await urlProblem(new URL(url), this.deps.urlPolicy);
    if (problem) throw validationError([{ field: "url", message: problem }]);
  }
}

/**
 * What the webhooks module does when a user's authorization of an app ends (contract §18.2): the endpoints that app
 * registered for that user go, in the same transaction.
 */
export const dropEndpointsOfRevokedApps: EventSubscriber = async (tx, _at, events) => {
  for (const event of events) {
    if (event.type === "app_authorization.revoked") await webhookRepository.deleteEndpointsOfApp(tx, event.userId, event.clientId);
  }
};
