import type { MailMessage } from "../../platform/mail/outbox.js";

const mail = (to: string, subject: string, lines: string[]): MailMessage => ({ to, subject, text: `${lines.join("\n\n")}\n` });
const day = (date: Date) => date.toISOString().slice(0, 10).split("-").reverse().join("/");

export const coachingMails = {
  inviteSent: (to: string, studentName: string, trainerName: string, message: string | null, expiresAt: Date, answerUrl: string) =>
    mail(to, "Você recebeu um convite de personal trainer", [
      `Olá, ${studentName}!`,
      `${trainerName} convidou você para ser seu aluno(a).`,
      ...(message ? [`Mensagem: "${message}"`] : []),
      `Responda até ${day(expiresAt)}: ${answerUrl}`,
    ]),
  inviteAccepted: (to: string, trainerName: string, studentName: string) =>
    mail(to, "Convite aceito", [`Olá, ${trainerName}!`, `${studentName} aceitou seu convite e agora é seu aluno(a).`]),
  inviteRejected: (to: string, trainerName: string, studentName: string) =>
    mail(to, "Convite recusado", [`Olá, ${trainerName}!`, `${studentName} recusou seu convite.`]),
  linkRemoved: (to: string, name: string, otherName: string) => mail(to, "Vínculo encerrado", [`Olá, ${name}!`, `O vínculo com ${otherName} foi encerrado.`]),
};
