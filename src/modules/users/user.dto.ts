import { z } from "zod";
import { day, instant, int } from "../../platform/answer-fields.js";
import { rowFromJson } from "../../platform/db/json.js";
import { enumeration } from "../../platform/enumeration.js";
import { GENDERS, USER_TYPES, users } from "../../tables/user.table.js";

export type UserRow = typeof users.$inferSelect;

/** What an erased account is called (contract §15): its public content stays, credited to this name. */
export const ERASED_USER_NAME = "Usuário removido";
/** An erased account's e-mail: unique, never deliverable (`.invalid` is reserved), and it frees the old address. */
export const erasedEmail = (userId: number) => `deleted-${userId}@invalid`;

export const userType = enumeration(USER_TYPES, {
  name: "UserType",
  description: "Which side of coaching an account is on, chosen at registration",
  meanings: {
    ALUNO: "A student: follows the plans assigned to them and logs their executions",
    PERSONAL: "A personal trainer: writes trainings and plans, invites students and coaches them",
  },
});

export const gender = enumeration(GENDERS, {
  name: "Gender",
  description: "A user's gender, as they give it in their profile",
  meanings: { MASCULINO: "Male", FEMININO: "Female", OUTRO: "Other" },
});

export const REQUEST_LOCATIONS = ["APP", "WEB"] as const;

export const requestLocation = enumeration(REQUEST_LOCATIONS, {
  name: "RequestLocation",
  description: "Where a registration comes from",
  meanings: {
    APP: "The mobile app: the account starts unconfirmed and a confirmation link is e-mailed",
    WEB: "The web app: the account starts confirmed when the registration says `confirmed: true`",
  },
});

/** UserDTO of api-spec.md, plus `emailConfirmed` (contract §3). */
export const userSchema = z
  .object({
    id: int().describe("The user's id"),
    name: z.string().describe(`Their name; "${ERASED_USER_NAME}" once the account is erased`),
    email: z.string().describe("Their e-mail address, lower-case and unique: how they log in"),
    userType: userType.schema.describe("Student (ALUNO) or personal trainer (PERSONAL)"),
    profilePicture: z.string().nullable().describe("Their photo's absolute address (GET it with no token), or null before one is uploaded"),
    phone: z.string().nullable().describe("Their phone number as they wrote it, or null when not given"),
    birthDate: day.nullable().describe("Their birth date (YYYY-MM-DD), or null when not given"),
    gender: gender.schema.nullable().describe("Their gender, or null when not given"),
    height: z.number().nullable().describe("Their height in centimetres (one decimal), or null when not given"),
    weight: z.number().nullable().describe("Their weight in kilograms (two decimals) as last set in their profile, or null when not given"),
    subscriptionType: z
      .string()
      .describe("What their subscription gives them: FREEMIUM without one, else the type of the plan that gives access (e.g. PREMIUM_MENSAL)"),
    subscriptionExpirationDate: instant.nullable().describe("When the access their subscription gives ends, or null on FREEMIUM"),
    emailConfirmed: z
      .boolean()
      .describe("Whether the address is confirmed: by a web registration, or by opening the confirmation link or a password reset link sent to it"),
    createdAt: instant.describe("When the account was created"),
    updatedAt: instant.describe("When the account was last changed"),
  })
  .meta({
    id: "User",
    description: "A user's account and profile, as the user, administrators and the other party of an ACTIVE link see it",
    examples: [
      {
        id: 42,
        name: "Ana Souza",
        email: "ana.souza@example.com",
        userType: "ALUNO",
        profilePicture: "https://fitness.example.com/uploads/3f9c2a7d41b84e0c9a1d5e6f7a8b9c0d.jpg",
        phone: "+55 11 91234-5678",
        birthDate: "1995-04-12",
        gender: "FEMININO",
        height: 165.5,
        weight: 61.25,
        subscriptionType: "PREMIUM_MENSAL",
        subscriptionExpirationDate: new Date("2025-07-15T12:00:00.000Z"),
        emailConfirmed: true,
        createdAt: new Date("2025-01-15T12:00:00.000Z"),
        updatedAt: new Date("2025-06-15T12:00:00.000Z"),
      },
    ],
  });
export type UserDto = z.output<typeof userSchema>;

/** What a UserDto shows of a user's row (never its password hash, session version or administrator flag). */
export type UserShownRow = Omit<UserRow, "passwordHash" | "sessionVersion" | "isAdmin">;

export function toUserDto(row: UserShownRow): UserDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    userType: row.userType,
    profilePicture: row.profilePicture,
    phone: row.phone,
    birthDate: row.birthDate,
    gender: row.gender,
    height: row.heightCm,
    weight: row.weightKg,
    subscriptionType: row.subscriptionType,
    subscriptionExpirationDate: row.subscriptionExpiresAt,
    emailConfirmed: row.emailConfirmed,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * A user as userJson (user.fragments.ts) wrote it, as the userById loader answers it (a UserDto: instants back to
 * Dates; not `extra`), or, when userJson was given `keys`, those of its fields only: for a reader that reads no other.
 */
export const userFromJson = (json: Record<string, unknown>): UserDto => toUserDto(rowFromJson(users, json));

/** What anyone may see of a user who authored public content. */
export const userSummarySchema = userSchema
  .pick({ id: true, name: true, userType: true, profilePicture: true })
  .meta({ id: "UserSummary", description: "What anyone may see of a user who authored public content: no contact or body data" });
export type UserSummaryDto = z.output<typeof userSummarySchema>;

/** A content object's author, read with it when a GraphQL selection asks for it (AuthorInclude); absent otherwise, and in REST. */
export interface CreatorIncluded {
  creator?: UserSummaryDto | null;
}

/** What register, login and firebase-login answer. */
export const sessionSchema = z
  .object({
    user: userSchema.describe("The signed-in user"),
    token: z.string().describe("A login token (a JWT valid for 24 hours, holding every scope): send it as `Authorization: Bearer <token>`"),
    userId: int().describe("The signed-in user's id"),
    success: z.literal(true).describe("Always true"),
  })
  .meta({ id: "Session", description: "A new session: the user signed in and the token to call the API with" });
export type SessionDto = z.output<typeof sessionSchema>;

/** What refresh-token answers: the new token. */
export const refreshedTokenSchema = z
  .object({
    token: z.string().describe("The new login token, valid for 24 hours from now; the one the request carried is revoked"),
    success: z.literal(true).describe("Always true"),
  })
  .meta({ id: "RefreshedToken", description: "The login token that replaces the one sent" });

export const messageSchema = z
  .object({
    message: z.string().describe("What was done, in Portuguese, for the user to read"),
    success: z.literal(true).describe("Always true"),
  })
  .meta({ id: "Message", description: "A confirmation that the request was done" });
export type MessageDto = z.output<typeof messageSchema>;
