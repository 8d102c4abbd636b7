import type { MailMessage } from "../../platform/mail/outbox.js";
import { formatBrl } from "../../platform/money.js";
import { formatDateBr as day } from "../../platform/dates.js";

function mail(to: string, subject: string, lines: string[]): MailMessage {
  return { to, subject, text: `${lines.join("\n\n")}\n` };
}

export const billingMails = {
  paymentConfirmed: (to: string, name: string, planName: string, amountCents: number, endDate: Date) =>
    mail(to, "Pagamento confirmado", [
      `Olá, ${name}!`,
      `Recebemos o pagamento de ${formatBrl(amountCents)} do plano ${planName}.`,
      `Sua assinatura está ativa até ${day(endDate)}.`,
    ]),
  paymentFailed: (to: string, name: string, planName: string, reason: string) =>
    mail(to, "Falha no pagamento", [
      `Olá, ${name}!`,
      `Não conseguimos processar o pagamento do plano ${planName} (${reason}).`,
      "Verifique os dados do seu cartão ou escolha outra forma de pagamento.",
    ]),
  canceled: (to: string, name: string, planName: string, accessUntil: Date | null) =>
    mail(to, "Assinatura cancelada", [
      `Olá, ${name}!`,
      `Sua assinatura do plano ${planName} foi cancelada.`,
      accessUntil ? `Você mantém o acesso até ${day(accessUntil)}.` : "O acesso premium foi encerrado.",
    ]),
  refunded: (to: string, name: string, planName: string, amountCents: number) =>
    mail(to, "Pagamento devolvido", [
      `Olá, ${name}!`,
      `Recebemos um pagamento de ${formatBrl(amountCents)} do plano ${planName} depois que essa assinatura foi substituída ou encerrada.`,
      "O valor foi devolvido pelo mesmo meio de pagamento.",
    ]),
  renewed: (to: string, name: string, planName: string, amountCents: number, endDate: Date) =>
    mail(to, "Assinatura renovada", [
      `Olá, ${name}!`,
      `Sua assinatura do plano ${planName} foi renovada por ${formatBrl(amountCents)}.`,
      `Novo período até ${day(endDate)}.`,
    ]),
  renewalReminder: (to: string, name: string, planName: string, endDate: Date) =>
    mail(to, "Sua assinatura está perto do fim", [
      `Olá, ${name}!`,
      `Sua assinatura do plano ${planName} termina em ${day(endDate)} e não será renovada automaticamente.`,
      "Renove para continuar com o acesso premium.",
    ]),
  expired: (to: string, name: string, planName: string) =>
    mail(to, "Assinatura expirada", [`Olá, ${name}!`, `Sua assinatura do plano ${planName} expirou.`, "Assine novamente quando quiser."]),
};
