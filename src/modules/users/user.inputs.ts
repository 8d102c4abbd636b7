import { z } from "zod";
import { emailField, isoDate, optionalText, passwordField, requiredText } from "../../platform/validation.js";
import { GENDERS, USER_TYPES } from "./user.table.js";

export const REQUEST_LOCATIONS = ["APP", "WEB"] as const;

export const registerInput = z.object({
  name: requiredText(120),
  email: emailField,
  password: passwordField,
  userType: z.enum(USER_TYPES),
  requestLocation: z.enum(REQUEST_LOCATIONS),
  confirmed: z.boolean(),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z.object({
  email: z.string().trim().min(1, "Campo obrigatório").max(254),
  password: z.string().min(1, "Campo obrigatório").max(1024),
});
export type LoginInput = z.infer<typeof loginInput>;

export const firebaseLoginInput = z.object({
  firebaseToken: z.string().trim().min(1, "Campo obrigatório").max(8192),
});

export const forgotPasswordInput = z.object({ email: z.string().trim().min(1, "Campo obrigatório").max(254) });

export const resetPasswordInput = z.object({
  token: z.string().trim().min(1, "Campo obrigatório").max(512),
  password: passwordField,
});

export const confirmEmailInput = z.object({ token: z.string().trim().min(1, "Campo obrigatório").max(512) });

const decimal = (min: number, max: number, places: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .refine((value) => Number.isInteger(Math.round(value * 10 ** places * 1e6) / 1e6), `No máximo ${places} casas decimais`);

/** PUT /users/profile: every field optional; null clears an optional field. */
export const profileInput = z.object({
  name: requiredText(120).optional(),
  phone: optionalText(30),
  birthDate: isoDate.nullish(),
  gender: z.enum(GENDERS).nullish(),
  height: decimal(30, 300, 1).nullish(),
  weight: decimal(1, 700, 2).nullish(),
});
export type ProfileInput = z.infer<typeof profileInput>;

/** PATCH /users/{id}. */
export const renameInput = z.object({
  name: z
    .string({ error: "Nome não pode estar vazio" })
    .trim()
    .min(1, "Nome não pode estar vazio")
    .max(120),
});
