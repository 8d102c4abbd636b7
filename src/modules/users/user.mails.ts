import { escapeHtml } from "../../platform/html.js";
import type { MailMessage } from "../../platform/mail/outbox.js";

function linkMail(to: string, subject: string, greeting: string, lines: string[], link: string): MailMessage {
  const text = [greeting, "", ...lines, "", link, ""].join("\n");
  const html = `<p>${escapeHtml(greeting)}</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;
  return { to, subject, text, html };
}

export const confirmationMail = (to: string, name: string, link: string) =>
  linkMail(to, "Confirme seu e-mail", `Olá, ${name}!`, ["Bem-vindo(a)! Para confirmar seu endereço de e-mail, abra o link abaixo:"], link);

export const passwordResetMail = (to: string, name: string, link: string) =>
  linkMail(
    to,
    "Redefinição de senha",
    `Olá, ${name}!`,
    [
      "Recebemos um pedido para redefinir sua senha. Abra o link abaixo para escolher uma nova senha.",
      "O link vale por 1 hora e pode ser usado uma única vez. Se você não fez este pedido, ignore este e-mail.",
    ],
    link,
  );
