import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, numeric, pgTable, serial, text, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { createdAt, instant, oneOf, updatedAt } from "../platform/db/columns.js";

export const USER_TYPES = ["ALUNO", "PERSONAL"] as const;
export type UserType = (typeof USER_TYPES)[number];
export const GENDERS = ["MASCULINO", "FEMININO", "OUTRO"] as const;
export type Gender = (typeof GENDERS)[number];

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 120 }).notNull(),
    // Stored lower-case, so the unique index is case-insensitive.
    email: varchar("email", { length: 254 }).notNull(),
    passwordHash: text("password_hash").notNull(),
    userType: text("user_type").$type<UserType>().notNull(),
    profilePicture: text("profile_picture"),
    phone: varchar("phone", { length: 30 }),
    birthDate: date("birth_date", { mode: "string" }),
    gender: text("gender").$type<Gender>(),
    heightCm: numeric("height_cm", { precision: 5, scale: 1, mode: "number" }),
    weightKg: numeric("weight_kg", { precision: 5, scale: 2, mode: "number" }),
    subscriptionType: text("subscription_type").notNull().default("FREEMIUM"),
    subscriptionExpiresAt: instant("subscription_expires_at"),
    emailConfirmed: boolean("email_confirmed").notNull().default(false),
    isAdmin: boolean("is_admin").notNull().default(false),
    // Carried in every access token as `ver`; a password reset bumps it, which revokes every earlier token.
    sessionVersion: integer("session_version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    check("users_email_lower", sql`${t.email} = lower(${t.email})`),
    check("users_user_type_check", sql`${t.userType} in (${oneOf(USER_TYPES)})`),
    check("users_gender_check", sql`${t.gender} in (${oneOf(GENDERS)})`),
  ],
);

/** Every weight set through the profile, for the metrics' weight history. */
export const weightHistory = pgTable(
  "weight_history",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    weightKg: numeric("weight_kg", { precision: 5, scale: 2, mode: "number" }).notNull(),
    recordedAt: instant("recorded_at").notNull(),
  },
  (t) => [index("weight_history_user_recorded_idx").on(t.userId, t.recordedAt)],
);

export const ONE_TIME_TOKEN_PURPOSES = ["EMAIL_CONFIRMATION", "PASSWORD_RESET"] as const;
export type OneTimeTokenPurpose = (typeof ONE_TIME_TOKEN_PURPOSES)[number];

/** Single-use tokens sent by e-mail; only their SHA-256 is stored. */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose").$type<OneTimeTokenPurpose>().notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: instant("expires_at").notNull(),
    usedAt: instant("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("one_time_tokens_hash_key").on(t.tokenHash),
    index("one_time_tokens_user_idx").on(t.userId, t.purpose),
    check("one_time_tokens_purpose_check", sql`${t.purpose} in (${oneOf(ONE_TIME_TOKEN_PURPOSES)})`),
  ],
);

/** Access tokens revoked by logout or refresh, kept until they would have expired anyway. */
export const revokedTokens = pgTable(
  "revoked_tokens",
  {
    jti: text("jti").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: instant("expires_at").notNull(),
  },
  (t) => [index("revoked_tokens_expires_idx").on(t.expiresAt)],
);
