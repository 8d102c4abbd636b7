import { forbidden } from "../../platform/errors.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";

const TRAINERS_ONLY = "Apenas personal trainers podem acessar este recurso";
const STUDENTS_ONLY = "Apenas alunos podem acessar este recurso";
const PUBLIC_CONTENT_TRAINERS_ONLY = "Apenas personal trainers podem criar conteúdo público";

/** A signed-in PERSONAL user, else 401 / 403 with `message` (each resource names what trainers alone may do). */
export function requireTrainer(actor: Actor, message = TRAINERS_ONLY): UserActor {
  const caller = requireUser(actor);
  if (caller.userType !== "PERSONAL") throw forbidden(message);
  return caller;
}

/** A signed-in ALUNO user, else 401 / 403. */
export function requireStudent(actor: Actor): UserActor {
  const caller = requireUser(actor);
  if (caller.userType !== "ALUNO") throw forbidden(STUDENTS_ONLY);
  return caller;
}

/** True when the caller is one of `ownerIds`, or an administrator: administrators pass every ownership check (contract §3). */
export function isOwnerOrAdmin(caller: Pick<UserActor, "id" | "isAdmin">, ...ownerIds: number[]): boolean {
  return caller.isAdmin || ownerIds.includes(caller.id);
}

/** 403 `Acesso negado` unless the caller is one of `ownerIds` or an administrator. */
export function requireOwnerOrAdmin(caller: UserActor, ...ownerIds: number[]): void {
  if (!isOwnerOrAdmin(caller, ...ownerIds)) throw forbidden();
}

/** Students create only private exercises and trainings (contract §4); trainers and administrators may publish. */
export function ensureMayPublish(caller: UserActor, isPublic: boolean): void {
  if (isPublic && caller.userType !== "PERSONAL" && !caller.isAdmin) throw forbidden(PUBLIC_CONTENT_TRAINERS_ONLY);
}
