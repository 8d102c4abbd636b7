/**
 * What a token from an app or a personal token may reach (contract §18.2), in words for the consent page (Portuguese)
 * and for the OpenAPI document (English). Login tokens hold every scope.
 */
export const SCOPES = {
  "profile:read": { pt: "ver seu perfil", en: "Read the user's profile" },
  "profile:write": { pt: "alterar seu perfil", en: "Change the user's profile" },
  "content:read": { pt: "ver exercícios, treinos e planos", en: "Read exercises, trainings and plans" },
  "content:write": { pt: "criar e alterar exercícios, treinos e planos", en: "Create and change exercises, trainings and plans" },
  "students:read": { pt: "ver seus vínculos, convites e o perfil dos alunos vinculados", en: "Read links, invites and linked students' profiles" },
  "students:write": { pt: "convidar alunos, atribuir planos e desfazer vínculos", en: "Send invites, assign plans, remove links" },
  "activity:read": {
    pt: "ver execuções, estatísticas, progresso, recordes e adesão",
    en: "Read executions, statistics, progress, records, metrics, adherence, the dashboard and the change feed",
  },
  "activity:write": { pt: "registrar execuções de treino", en: "Log executions" },
  "billing:read": { pt: "ver assinatura, pagamentos e faturas", en: "Read the subscription, payments and invoices" },
  "webhooks:manage": { pt: "gerenciar webhooks", en: "Manage outbound webhook endpoints" },
  offline_access: { pt: "manter o acesso quando você não estiver usando o app", en: "Refresh tokens (stay connected)" },
} as const;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/**
 * What an operation needs: one scope, or `login`: only a login session may (managing the account itself, its tokens and
 * its apps), never a token handed to a tool.
 */
export type ScopeRequirement = Scope | "login";

/** The scopes a credential carries: every one (a login token), or those it was granted. */
export type ScopeSet = "all" | ReadonlySet<Scope>;

export function isScope(name: string): name is Scope {
  return Object.hasOwn(SCOPES, name);
}

/** Whether a credential of `scopes` may do what needs `requirement` (only a login session holds `login`). */
export function scopeAllows(scopes: ScopeSet, requirement: ScopeRequirement): boolean {
  return scopes === "all" || (requirement !== "login" && scopes.has(requirement));
}

export const INSUFFICIENT_SCOPE = "Escopo insuficiente";
