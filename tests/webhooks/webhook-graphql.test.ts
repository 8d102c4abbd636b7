import { describe, expect, it } from "vitest";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { deliverWebhooks, Receiver, verifyWith } from "./support.js";

const t = useTestApp();

const FIELDS = "id url events description enabled createdAt updatedAt";

describe("webhook endpoints over GraphQL", () => {
  it("registers, lists, changes, tests, rotates and deletes an endpoint as REST does", async () => {
    const trainer = await makeTrainer(t);
    const receiver = await new Receiver(t.clock).start();
    try {
      const created = await t.graphql(
        `mutation($url: String!) { createWebhookEndpoint(url: $url, events: ["invite.updated"], description: "painel") { ${FIELDS} secret } }`,
        { url: receiver.url },
        trainer.token,
      );
      const endpoint = created.data.createWebhookEndpoint;
      expect(endpoint).toMatchObject({ url: receiver.url, events: ["invite.updated"], description: "painel", enabled: true });
      const { secret, ...shown } = endpoint;
      expect((await t.get(`/api/webhook-endpoints/${endpoint.id}`, { token: trainer.token })).body).toEqual(shown);

      const list = await t.graphql(`{ webhookEndpoints { content { id } totalElements } }`, {}, trainer.token);
      expect(list.data.webhookEndpoints).toEqual({ content: [{ id: endpoint.id }], totalElements: 1 });

      const changed = await t.graphql(
        `mutation($id: Int!) { updateWebhookEndpoint(id: $id, events: ["link.updated"], description: null) { events description url } }`,
        { id: endpoint.id },
        trainer.token,
      );
      expect(changed.data.updateWebhookEndpoint).toEqual({ events: ["link.updated"], description: null, url: receiver.url });

      const ping = await t.graphql(`mutation($id: Int!) { testWebhookEndpoint(id: $id) { id eventType status attempts } }`, { id: endpoint.id }, trainer.token);
      expect(ping.data.testWebhookEndpoint).toMatchObject({ eventType: "ping", status: "PENDING", attempts: 0 });
      await deliverWebhooks(t);
      expect(verifyWith(secret, receiver.received[0])).toMatchObject({ type: "ping" });
      const deliveries = await t.graphql(
        `query($id: Int!) { webhookDeliveries(endpointId: $id) { content { status attempts lastStatusCode } } }`,
        { id: endpoint.id },
        trainer.token,
      );
      expect(deliveries.data.webhookDeliveries.content).toEqual([{ status: "SUCCEEDED", attempts: 1, lastStatusCode: 200 }]);

      const rotated = await t.graphql(`mutation($id: Int!) { rotateWebhookEndpointSecret(id: $id) { secret } }`, { id: endpoint.id }, trainer.token);
      expect(rotated.data.rotateWebhookEndpointSecret.secret).toMatch(/^whsec_/);

      const stranger = await makeStudent(t);
      const denied = await t.graphql(`query($id: Int!) { webhookEndpoint(id: $id) { id } }`, { id: endpoint.id }, stranger.token);
      expect(denied.errors?.[0]).toMatchObject({ message: "Acesso negado", extensions: { status: 403 } });
      const invalid = await t.graphql(`mutation { createWebhookEndpoint(url: "ftp://x", events: ["nope"]) { id } }`, {}, stranger.token);
      expect(invalid.errors?.[0].extensions.errors.map((e: { field: string }) => e.field).sort()).toEqual(["events[0]", "url"]);

      const deleted = await t.graphql(`mutation($id: Int!) { deleteWebhookEndpoint(id: $id) }`, { id: endpoint.id }, trainer.token);
      expect(deleted.data.deleteWebhookEndpoint).toBe(true);
      const gone = await t.graphql(`query($id: Int!) { webhookEndpoint(id: $id) { id } }`, { id: endpoint.id }, trainer.token);
      expect(gone.errors?.[0]).toMatchObject({ message: "Endpoint não encontrado", extensions: { status: 404 } });
    } finally {
      await receiver.stop();
    }
  });
});
