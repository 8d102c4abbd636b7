import { z } from "zod";
import { instant } from "../../platform/answer-fields.js";
import { requireOwnerOrAdmin } from "../access/ownership.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { forbidden, notFound, unauthorized, validationError } from "../../platform/errors.js";
import type { ImageStorage, UploadedFile } from "../../platform/storage/image-storage.js";
import type { InputReader } from "../../platform/validation.js";
import { USER_NOT_FOUND } from "./auth.service.js";
import { ERASED_USER_NAME, erasedEmail, toUserDto, type UserDto, type UserRow, type UserSummaryDto, userSchema } from "./user.dto.js";
import type { ProfileInput, RenameInput } from "./user.inputs.js";
import { setSubscriptionAccess, userRepository, type UserChanges } from "./user.repository.js";
import type { FeedSource } from "../events/feed-source.js";
import { emit, type DomainEventOf } from "../events/emit.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import type { SessionCache } from "./session-cache.js";
import { userTreeFromJson, userTreeWithoutStatement, type UserInclude, type UserTree } from "./user.tree.js";

const STUDENT_NOT_FOUND = "Aluno não encontrado";

export interface UserServiceDeps {
  db: Db;
  clock: Clock;
  storage: ImageStorage;
  sessions: SessionCache;
}

/** What the data export holds of this module (contract §15). */
const accountExport = z.object({
  profile: userSchema.nullable().describe("The profile"),
  weightHistory: z
    .array(z.object({ weight: z.number().describe("kg"), recordedAt: instant.describe("When the profile took it") }))
    .describe("Every weight the profile held, oldest first"),
});

/** Profiles: reading users, editing one's own profile, the profile photo. */
export class UserService {
  constructor(private readonly deps: UserServiceDeps) {}

  async getProfile(actor: Actor): Promise<UserDto> {
    const caller = requireUser(actor);
    const user = await userRepository.findById(this.deps.db, caller.id);
    if (!user) throw unauthorized();
    return toUserDto(user);
  }

  /** A user, for themself, administrators, and the other party of an ACTIVE trainer-student link (contract §3). */
  async getUser(actor: Actor, id: number): Promise<UserDto> {
    const caller = requireUser(actor);
    const [found] = await userRepository.findByIdsReadableBy(this.deps.db, [id], caller);
    if (!found) throw notFound(USER_NOT_FOUND);
    if (!found.readable) throw forbidden();
    return toUserDto(found.user);
  }

  /**
   * Users by id as a GraphQL selection reads them (`include`: the keys, and the reads other modules embed), in the
   * order asked; null where missing or not readable by the caller. One statement for all of them.
   */
  async findTreesByIds(actor: Actor, ids: readonly number[], include: UserInclude): Promise<(UserTree | null)[]> {
    if (actor.kind !== "user") return ids.map(() => null);
    const found = await userRepository.findTrees(this.deps.db, ids, actor, include);
    const byId = new Map(found.map(({ id, tree }) => [id, userTreeFromJson(tree, include)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /**
   * `user`, just answered to the caller (after its rules and its writes), with the relations other modules embed in a
   * user that `include` names (its executions), read in one statement: 403 when the caller may no longer read it (a
   * link removed meanwhile). Nobody signed in (a session being opened) may read them: each answers its refusal, with
   * no statement.
   */
  async withEmbedded(actor: Actor, user: UserDto, include: UserInclude): Promise<UserDto | UserTree> {
    if (Object.keys(include.embedded).length === 0) return user;
    if (actor.kind !== "user") return userTreeWithoutStatement(user, include);
    const [tree] = await this.findTreesByIds(actor, [user.id], include);
    if (!tree) throw forbidden();
    return tree;
  }

  /** Public summaries (id, name, type, picture) by id, in the order asked: what an author shows of themself. */
  async findSummariesByIds(ids: readonly number[]): Promise<(UserSummaryDto | null)[]> {
    const rows = await userRepository.findSummaries(this.deps.db, ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** The account with this e-mail, else 404 (no access check: the asking module has its own rule). */
  async getByEmail(email: string): Promise<UserRow> {
    const user = await userRepository.findByEmail(this.deps.db, email);
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  }

  /** The ALUNO account with this id, else 404 `Aluno não encontrado` (no access check: the asking module has its own rule). */
  async getStudent(id: number): Promise<UserRow> {
    const user = await userRepository.findById(this.deps.db, id);
    if (!user || user.userType !== "ALUNO") throw notFound(STUDENT_NOT_FOUND);
    return user;
  }

  /** A user that exists, else 404 (no access check: the asking module has its own rule). */
  async ensureExists(id: number): Promise<void> {
    await this.load(id);
  }

  /** The account as stored, or null, for other modules' rules and e-mails; `db` is their transaction when they are in one. */
  findById(id: number, db: Db = this.deps.db): Promise<UserRow | null> {
    return userRepository.findById(db, id);
  }

  /** Accounts as stored (those that exist), for other modules' listings. */
  findByIds(ids: readonly number[], db: Db = this.deps.db): Promise<UserRow[]> {
    return userRepository.findByIds(db, ids);
  }

  /** What a subscription gives its user (contract §8): the type and until when; `db` is billing's transaction. */
  async setSubscriptionAccess(userId: number, subscriptionType: string, expiresAt: Date | null, now: Date, db: Db = this.deps.db): Promise<void> {
    await setSubscriptionAccess(db, userId, subscriptionType, expiresAt, now);
    await emit(db, now, { type: "user.updated", userId });
  }

  /** Changes the caller's profile; a weight set here is also a point of their weight history. */
  async updateProfile(actor: Actor, readInput: InputReader<ProfileInput>): Promise<UserDto> {
    const caller = requireUser(actor);
    const input = readInput();
    const { db, clock } = this.deps;
    const changes: UserChanges = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.phone !== undefined) changes.phone = input.phone;
    if (input.birthDate !== undefined) changes.birthDate = input.birthDate;
    if (input.gender !== undefined) changes.gender = input.gender;
    if (input.height !== undefined) changes.heightCm = input.height;
    if (input.weight !== undefined) changes.weightKg = input.weight;
    const updated = await db.transaction(async (tx) => {
      const now = clock.now();
      const before = await userRepository.findForUpdate(tx, caller.id);
      const row = await userRepository.update(tx, caller.id, { ...changes, updatedAt: now });
      // Every weight set here is also a point of the metrics' weight history (contract §3).
      if (row && typeof input.weight === "number") await userRepository.addWeight(tx, caller.id, input.weight, now);
      if (before && row) await emit(tx, now, profileChanged(before, row));
      return row;
    });
    if (!updated) throw unauthorized();
    return toUserDto(updated);
  }

  /** Changes a user's name; self or administrator. */
  async rename(actor: Actor, id: number, readInput: InputReader<RenameInput>): Promise<UserDto> {
    const caller = requireUser(actor);
    const input = readInput();
    await this.loadEditable(caller, id);
    const updated = await this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const before = await userRepository.findForUpdate(tx, id);
      const row = await userRepository.update(tx, id, { name: input.name, updatedAt: now });
      if (before && row) await emit(tx, now, profileChanged(before, row));
      return row;
    });
    if (!updated) throw notFound(USER_NOT_FOUND);
    return toUserDto(updated);
  }

  /**
   * Replaces the profile photo (an image judged by its bytes); the old file is removed. The upload is read
   * only once the caller may change this user, so nobody can make the server buffer files for others' ids.
   */
  async updatePhoto(actor: Actor, id: number, readFile: () => Promise<UploadedFile | undefined>): Promise<UserDto> {
    const caller = requireUser(actor);
    const user = await this.loadEditable(caller, id);
    const file = await readFile();
    if (!file) throw validationError([{ field: "file", message: "Arquivo obrigatório" }]);
    const { storage } = this.deps;
    const url = await storage.saveImage(file);
    const updated = await this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const before = await userRepository.findForUpdate(tx, id);
      const row = await userRepository.update(tx, id, { profilePicture: url, updatedAt: now });
      if (before && row) await emit(tx, now, profileChanged(before, row));
      return row;
    });
    if (!updated) {
      await storage.remove(url);
      throw notFound(USER_NOT_FOUND);
    }
    await storage.remove(user.profilePicture);
    return toUserDto(updated);
  }

  /** The account as stored, unless unknown or erased already (contract §15); `db` is the erasure's transaction. */
  async findErasable(id: number, db: Db): Promise<UserRow | null> {
    const user = await userRepository.findById(db, id);
    return user && !isErased(user) ? user : null;
  }

  /**
   * The profile and weight history (contract §15). Erasure keeps the row, for what the law keeps (payments, invoices)
   * and the public content credited to it, anonymized: every token revoked, the photo file removed after the commit.
   */
  readonly personalData: PersonalDataHolder<typeof accountExport> = {
    exportSections: accountExport,
    exportPersonalData: async (db, userId) => {
      const [user, weightHistory] = await Promise.all([userRepository.findById(db, userId), userRepository.weightHistoryOf(db, userId)]);
      return { profile: user ? toUserDto(user) : null, weightHistory };
    },
    erasePersonalData: async (tx, userId, now) => {
      // Locked here, after the modules before it took their own locks (billing's first, as every billing write does);
      // an erasure that waited on another one of the same account finds it erased and undoes its work.
      const before = await userRepository.findForUpdate(tx, userId);
      if (!before || isErased(before)) throw notFound(USER_NOT_FOUND);
      const after = await userRepository.updateAndRevokeSessions(tx, userId, {
        name: ERASED_USER_NAME,
        email: erasedEmail(userId),
        // No bcrypt hash matches an empty text: nobody signs in with a password again.
        passwordHash: "",
        phone: null,
        birthDate: null,
        gender: null,
        heightCm: null,
        weightKg: null,
        profilePicture: null,
        subscriptionType: "FREEMIUM",
        subscriptionExpiresAt: null,
        emailConfirmed: false,
        isAdmin: false,
        updatedAt: now,
      });
      await userRepository.deleteHistoryAndTokens(tx, userId);
      if (after) await emit(tx, now, profileChanged(before, after));
      return async () => {
        await this.deps.sessions.usersChanged([userId]);
        await this.deps.storage.remove(before.profilePicture);
      };
    },
  };

  /** The change feed's profiles: the reader's own, as GET /users/profile answers it. */
  readonly profileFeed: FeedSource<UserDto> = {
    load: async (reader, ids) => {
      if (!ids.includes(reader.id)) return new Map();
      const user = await userRepository.findById(this.deps.db, reader.id);
      return new Map(user ? [[user.id, toUserDto(user)]] : []);
    },
    idsAfter: async (reader, afterId, limit) => (reader.id > afterId && limit > 0 ? [reader.id] : []),
  };

  private async load(id: number): Promise<UserRow> {
    const user = await userRepository.findById(this.deps.db, id);
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  }

  private async loadEditable(caller: UserActor, id: number): Promise<UserRow> {
    const user = await this.load(id);
    requireOwnerOrAdmin(caller, id);
    return user;
  }
}

const isErased = (user: UserRow) => user.email === erasedEmail(user.id);

/** Who may read a user (contract §3): the user, administrators, and the other party of an ACTIVE trainer-student link. */
/** The event of a profile change, saying whether what other users see of the user (name, picture) changed. */
function profileChanged(before: UserRow, after: UserRow): DomainEventOf<"user.updated"> {
  return {
    type: "user.updated",
    userId: after.id,
    shown: { userType: after.userType, name: before.name !== after.name, picture: before.profilePicture !== after.profilePicture },
  };
}
