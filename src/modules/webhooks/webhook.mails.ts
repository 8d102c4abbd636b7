import type { MailMessage } from "../../platform/mail/outbox.js";

export const webhookMails = {
  endpointDisabled: (to: string, name: string, url: string) =>
    ({
      to,
      subject: "Endpoint de webhook desativado",
      text:
        [
          `Olá, ${name}!`,
          `O endpoint ${url} foi desativado: nenhuma entrega teve sucesso nos últimos 5 dias.`,
          "Corrija o receptor e reative-o (PATCH /api/webhook-endpoints/{id} com enabled: true); entregas que falharam podem ser reenviadas.",
        ].join("\n\n") + "\n",
    }) satisfies MailMessage,
};
