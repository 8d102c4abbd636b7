import { z } from "zod";
import { day, instant, int } from "../../platform/answer-fields.js";
import { rowFromJson } from "../../platform/db/json.js";
import { GENDERS, USER_TYPES, users } from "../../tables/user.table.js";

export type UserRow = typeof users.$inferSelect;

/** What an erased account is called (contract §15): its public content stays, credited to this name. */
export const ERASED_USER_NAME = "Usuário removido";
/** An erased account's e-mail: unique, never deliverable (`.invalid` is reserved), and it frees the old address. */
export const erasedEmail = (userId: number) => `deleted-${userId}@invalid`;

/** UserDTO of api-spec.md, plus `emailConfirmed` (contract §3). */
export const userSchema = z
  .object({
    id: int(),
    name: z.string(),
    email: z.string(),
    userType: z.enum(USER_TYPES),
    profilePicture: z.string().nullable(),
    phone: z.string().nullable(),
    birthDate: day.nullable(),
    gender: z.enum(GENDERS).nullable(),
    height: z.number().nullable().describe("cm"),
    weight: z.number().nullable().describe("kg"),
    subscriptionType: z.string(),
    subscriptionExpirationDate: instant.nullable(),
    emailConfirmed: z.boolean(),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: "User" });
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
export const userSummarySchema = userSchema.pick({ id: true, name: true, userType: true, profilePicture: true }).meta({ id: "UserSummary" });
export type UserSummaryDto = z.output<typeof userSummarySchema>;

/** A content object's author, read with it when a GraphQL selection asks for it (AuthorInclude); absent otherwise, and in REST. */
export interface CreatorIncluded {
  creator?: UserSummaryDto | null;
}

/** What register, login and firebase-login answer. */
export const sessionSchema = z.object({ user: userSchema, token: z.string(), userId: int(), success: z.literal(true) }).meta({ id: "Session" });
export type SessionDto = z.output<typeof sessionSchema>;

/** What refresh-token answers: the new token. */
export const refreshedTokenSchema = z.object({ token: z.string(), success: z.literal(true) }).meta({ id: "RefreshedToken" });

export const messageSchema = z.object({ message: z.string(), success: z.literal(true) }).meta({ id: "Message" });
export type MessageDto = z.output<typeof messageSchema>;
