import type { users } from "./user.table.js";

export type UserRow = typeof users.$inferSelect;

/** What an erased account is called (contract §15): its public content stays, credited to this name. */
export const ERASED_USER_NAME = "Usuário removido";
/** An erased account's e-mail: unique, never deliverable (`.invalid` is reserved), and it frees the old address. */
export const erasedEmail = (userId: number) => `deleted-${userId}@invalid`;

/** UserDTO of api-spec.md, plus `emailConfirmed` (contract §3). */
export interface UserDto {
  id: number;
  name: string;
  email: string;
  userType: "ALUNO" | "PERSONAL";
  profilePicture: string | null;
  phone: string | null;
  birthDate: string | null;
  gender: "MASCULINO" | "FEMININO" | "OUTRO" | null;
  height: number | null;
  weight: number | null;
  subscriptionType: string;
  subscriptionExpirationDate: Date | null;
  emailConfirmed: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function toUserDto(row: UserRow): UserDto {
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

/** What anyone may see of a user who authored public content. */
export interface UserSummaryDto {
  id: number;
  name: string;
  userType: "ALUNO" | "PERSONAL";
  profilePicture: string | null;
}

/** What register, login and firebase-login answer. */
export interface SessionDto {
  user: UserDto;
  token: string;
  userId: number;
  success: true;
}

export interface MessageDto {
  message: string;
  success: true;
}
