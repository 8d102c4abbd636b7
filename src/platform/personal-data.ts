import type { z } from "zod";
import type { Db } from "./db/database.js";

/** Sections of a person's data export (contract §15), by name; every value is JSON-ready and holds no secret. */
export type PersonalDataSections = Record<string, unknown>;

/** Work an erasure leaves for after its commit (a file to remove, a gateway to call, other instances to tell). */
export type AfterErasure = () => Promise<void>;

/**
 * What the privacy module asks of each module that keeps a person's rows (contract §15): the module exports them and
 * erases them itself, so no module's tables are read or written behind its back. A module plugs in by exposing one
 * (`readonly personalData: PersonalDataHolder`) and by being listed, once, where the services are composed.
 */
export interface PersonalDataHolder<Sections extends z.ZodObject = z.ZodObject> {
  /** The sections this module adds to the export, as the export's document declares them (GET /users/me/export). */
  readonly exportSections: Sections;
  /**
   * The person's rows, as sections of the export: never a password hash, token, key or card number. Read through
   * `db` only: the export's one read-only transaction, so that every section comes from the same snapshot.
   */
  exportPersonalData(db: Db, userId: number): Promise<z.output<Sections>>;
  /**
   * Erases or anonymizes the person's rows inside the erasure's transaction `tx` (at `now`), recording what others must
   * hear in the change feed; answers what must follow the commit, if anything (never a network call inside `tx`).
   */
  erasePersonalData(tx: Db, userId: number, now: Date): Promise<AfterErasure | void>;
}
