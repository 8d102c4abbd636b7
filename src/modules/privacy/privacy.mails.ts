import type { MailMessage } from "../../platform/mail/outbox.js";

/** Tells the old address that the account and its data are gone (contract §15), and what the law keeps. */
export function accountErasedMail(to: string, name: string): MailMessage {
  const text = [
    `Olá, ${name}!`,
    "",
    "Sua conta foi removida, como você pediu: apagamos seus dados pessoais, seus treinos e seus recordes, e encerramos sua assinatura.",
    "Pagamentos e faturas ficam guardados, sem o seu nome, pelo prazo que a lei fiscal exige.",
    "Este endereço de e-mail pode ser usado em uma nova conta.",
    "",
  ].join("\n");
  return { to, subject: "Sua conta foi removida", text };
}
