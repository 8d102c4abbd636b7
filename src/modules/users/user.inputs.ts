import { z } from "zod";
import { emailField, isoDate, optionalText, passwordField, requiredText, type RefusalMessage } from "../../platform/validation.js";
import { gender, requestLocation, userType } from "./user.dto.js";

/** What the document says of a new password (passwordField: bcrypt reads 72 bytes at most, so longer is refused). */
const newPassword = passwordField.meta({ maxLength: 72 });
const NEW_PASSWORD = "at least 6 characters, at most 72 bytes in UTF-8";

/** A new account, and where the registration came from (a web registration may arrive already confirmed). */
export const registerInput = z
  .object({
    name: requiredText(120).describe("Their name (1 to 120 characters)"),
    email: emailField
      .meta({ format: "email" })
      .describe("Their e-mail address (at most 254 characters), how they will log in: stored lower-case, unique regardless of case"),
    password: newPassword.describe(`Their password: ${NEW_PASSWORD}`),
    userType: userType.schema.describe("Student (ALUNO) or personal trainer (PERSONAL)"),
    requestLocation: requestLocation.schema.describe("Where the registration comes from: APP e-mails a confirmation link"),
    confirmed: z.boolean().describe("true with WEB: the address counts as confirmed at once; otherwise a confirmation link is e-mailed"),
  })
  .describe("A new account; the answer signs it in");
export type RegisterInput = z.output<typeof registerInput>;

/** A login by e-mail and password. */
export const loginInput = z
  .object({
    email: z.string().trim().min(1, "Campo obrigatório").max(254).describe("The account's e-mail address, in any letter case (surrounding spaces ignored)"),
    password: z
      .string()
      .min(1, "Campo obrigatório")
      .max(1024)
      .describe("The account's password; one longer than 72 bytes in UTF-8 never matches (400 Credenciais inválidas)"),
  })
  .describe("A login with e-mail and password; repeated failures for one e-mail lock it out for a while (429)");
export type LoginInput = z.output<typeof loginInput>;

/** A login with an identity provider's ID token. */
export const firebaseLoginInput = z
  .object({
    firebaseToken: z
      .string()
      .trim()
      .min(1, "Campo obrigatório")
      .max(8192)
      .describe("An ID token from the identity provider (Firebase Authentication); its `email` claim names the account"),
  })
  .describe("A login with an identity provider's ID token");
export type FirebaseLoginInput = z.output<typeof firebaseLoginInput>;

/** Who asks for a password reset link. */
export const forgotPasswordInput = z
  .object({
    email: z.string().trim().min(1, "Campo obrigatório").max(254).describe("The account's e-mail address, in any letter case (surrounding spaces ignored)"),
  })
  .describe("Who asks for a password reset link");
export type ForgotPasswordInput = z.output<typeof forgotPasswordInput>;

/** A new password, with the token of the e-mailed reset link. */
export const resetPasswordInput = z
  .object({
    token: z
      .string()
      .trim()
      .min(1, "Campo obrigatório")
      .max(512)
      .describe("The `token` of the e-mailed reset link: valid for 1 hour, once, and only the latest link's"),
    password: newPassword.describe(`The new password: ${NEW_PASSWORD}`),
  })
  .describe("A new password, with the token of the e-mailed reset link; every token issued before it stops working");
export type ResetPasswordInput = z.output<typeof resetPasswordInput>;

const PASSWORD_TOO_SHORT = "A senha deve ter pelo menos 6 caracteres";

/** api-spec.md keeps its own top-level text for a short password on reset. */
export const shortPasswordMessage: RefusalMessage = (body) => {
  const password = (body as { password?: unknown } | null)?.password;
  return typeof password === "string" && password.length < 6 ? PASSWORD_TOO_SHORT : undefined;
};

/** The token of an e-mail confirmation link. */
export const confirmEmailInput = z
  .object({
    token: z.string().trim().min(1, "Campo obrigatório").max(512).describe("The `token` of the e-mailed confirmation link: valid for 7 days, once"),
  })
  .describe("The token of an e-mail confirmation link");
export type ConfirmEmailInput = z.output<typeof confirmEmailInput>;

const decimal = (min: number, max: number, places: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .refine((value) => Number.isInteger(Math.round(value * 10 ** places * 1e6) / 1e6), `No máximo ${places} casas decimais`);

/** Changes to one's own profile: every field optional; null clears an optional field. */
export const profileInput = z
  .object({
    name: requiredText(120).optional().describe("A new name (1 to 120 characters); it cannot be cleared"),
    phone: optionalText(30).describe("A phone number (at most 30 characters); null or blank clears it"),
    birthDate: isoDate.nullish().describe("A birth date (YYYY-MM-DD, 1900-01-01 to 2999-12-31); null clears it"),
    gender: gender.schema.nullish().describe("Their gender; null clears it"),
    height: decimal(30, 300, 1).nullish().describe("Height in centimetres: 30 to 300, at most one decimal; null clears it"),
    weight: decimal(1, 700, 2)
      .nullish()
      .describe("Weight in kilograms: 1 to 700, at most two decimals, also added to the weight history of the metrics; null clears it"),
  })
  .describe("Changes to the caller's profile: a field left out stays as it is, null clears it");
export type ProfileInput = z.output<typeof profileInput>;

const BLANK_NAME = "Nome não pode estar vazio";

/** A user's new name. */
export const renameInput = z
  .object({
    name: z.string({ error: BLANK_NAME }).trim().min(1, BLANK_NAME).max(120).describe("The new name: 1 to 120 characters"),
  })
  .describe("A user's new name");
export type RenameInput = z.output<typeof renameInput>;

/** api-spec.md keeps its own top-level text for a blank (or missing) name; other problems are "Validation failed". */
export const blankNameMessage: RefusalMessage = (body) => {
  const name = (body as { name?: unknown } | null)?.name;
  return name === undefined || name === null || (typeof name === "string" && name.trim() === "") ? BLANK_NAME : undefined;
};
