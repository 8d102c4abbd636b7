import { z } from "zod";

/**
 * What proves an account's owner asks for its erasure (contract §15): the password, or for an account that signs in
 * through the identity provider, a fresh ID token of it. One of them is required.
 */
export const deleteAccountInput = z
  .object({
    password: z.string().min(1, "Campo obrigatório").max(1024).optional().describe("The account's password (a wrong one: 400 Credenciais inválidas)"),
    firebaseToken: z
      .string()
      .trim()
      .min(1, "Campo obrigatório")
      .max(8192)
      .optional()
      .describe("For an account without a password: a fresh ID token of its e-mail from the identity provider"),
  })
  .refine((input) => input.password !== undefined || input.firebaseToken !== undefined, {
    path: ["password"],
    message: "Informe a senha ou o firebaseToken",
  })
  .describe("What proves the account is the caller's: its password, or an identity provider's ID token");
export type DeleteAccountInput = z.output<typeof deleteAccountInput>;
