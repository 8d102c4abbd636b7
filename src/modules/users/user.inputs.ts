import { z } from "zod";
import { emailField, isoDate, optionalText, passwordField, requiredText, type RefusalMessage } from "../../platform/validation.js";
import { GENDERS, USER_TYPES } from "../../tables/user.table.js";

export const REQUEST_LOCATIONS = ["APP", "WEB"] as const;

/** A new account, and where the registration came from (a web registration may arrive already confirmed). */
export const registerInput = z.object({
  name: requiredText(120),
  email: emailField,
  password: passwordField,
  userType: z.enum(USER_TYPES),
  requestLocation: z.enum(REQUEST_LOCATIONS),
  confirmed: z.boolean(),
});
export type RegisterInput = z.output<typeof registerInput>;

/** A login by e-mail and password. */
export const loginInput = z.object({
  email: z.string().trim().min(1, "Campo obrigatório").max(254),
  password: z.string().min(1, "Campo obrigatório").max(1024),
});
export type LoginInput = z.output<typeof loginInput>;

/** A login with an identity provider's ID token. */
export const firebaseLoginInput = z.object({
  firebaseToken: z.string().trim().min(1, "Campo obrigatório").max(8192),
});
export type FirebaseLoginInput = z.output<typeof firebaseLoginInput>;

/** Who asks for a password reset link. */
export const forgotPasswordInput = z.object({ email: z.string().trim().min(1, "Campo obrigatório").max(254) });
export type ForgotPasswordInput = z.output<typeof forgotPasswordInput>;

/** A new password, with the token of the e-mailed reset link. */
export const resetPasswordInput = z.object({
  token: z.string().trim().min(1, "Campo obrigatório").max(512),
  password: passwordField,
});
export type ResetPasswordInput = z.output<typeof resetPasswordInput>;

const PASSWORD_TOO_SHORT = "A senha deve ter pelo menos 6 caracteres";

/** api-spec.md keeps its own top-level text for a short password on reset. */
export const shortPasswordMessage: RefusalMessage = (body) => {
  const password = (body as { password?: unknown } | null)?.password;
  return typeof password === "string" && password.length < 6 ? PASSWORD_TOO_SHORT : undefined;
};

/** The token of an e-mail confirmation link. */
export const confirmEmailInput = z.object({ token: z.string().trim().min(1, "Campo obrigatório").max(512) });
export type ConfirmEmailInput = z.output<typeof confirmEmailInput>;

const decimal = (min: number, max: number, places: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .refine((value) => Number.isInteger(Math.round(value * 10 ** places * 1e6) / 1e6), `No máximo ${places} casas decimais`);

/** Changes to one's own profile: every field optional; null clears an optional field. */
export const profileInput = z.object({
  name: requiredText(120).optional(),
  phone: optionalText(30),
  birthDate: isoDate.nullish(),
  gender: z.enum(GENDERS).nullish(),
  height: decimal(30, 300, 1).nullish(),
  weight: decimal(1, 700, 2).nullish(),
});
export type ProfileInput = z.output<typeof profileInput>;

const BLANK_NAME = "Nome não pode estar vazio";

/** A user's new name. */
export const renameInput = z.object({
  name: z.string({ error: BLANK_NAME }).trim().min(1, BLANK_NAME).max(120),
});
export type RenameInput = z.output<typeof renameInput>;

/** api-spec.md keeps its own top-level text for a blank (or missing) name; other problems are "Validation failed". */
export const blankNameMessage: RefusalMessage = (body) => {
  const name = (body as { name?: unknown } | null)?.name;
  return name === undefined || name === null || (typeof name === "string" && name.trim() === "") ? BLANK_NAME : undefined;
};
