import { z } from "zod";
import { requireOwnerOrAdmin, requireTrainer } from "../access/ownership.js";
import { contentVisibleAtOnce } from "../access/content.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { unlessForeignKeyRefuses } from "../../platform/db/constraint-violation.js";
import type { Db } from "../../platform/db/database.js";
import { conflict, forbidden, notFound } from "../../platform/errors.js";
import { toPage, type Page, type PageRequest } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import { TRAINING_NOT_FOUND, trainingFromJson, type TrainingService } from "../trainings/training.service.js";
import type { PlanInput, PlanListQuery } from "./training-plan.inputs.js";
import { type PlanTrainingDto, type TrainingPlanDto, trainingPlanSchema } from "./training-plan.dto.js";
import type { CreatorIncluded } from "../users/user.dto.js";
import { trainingPlanRepository, type PlanInclude, type PlanRow, type PlanTrainingJson } from "./training-plan.repository.js";

export type { PlanInclude };
import { sql } from "drizzle-orm";
import type { FeedSource } from "../events/feed-source.js";
import { emit } from "../events/emit.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { trainingIdsOfPlans } from "./training-plan.fragments.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

export const PLAN_NOT_FOUND = "Plano de treino não encontrado";
export const TRAINERS_ONLY = "Apenas personal trainers podem criar planos de treino";
const PLAN_ASSIGNED = "Plano de treino está atribuído a alunos";

export type { PlanTrainingDto, TrainingPlanDto };

/** What the data export holds of this module (contract §15). */
const trainingPlanExport = z.object({ trainingPlans: z.array(trainingPlanSchema).describe("The plans the user wrote") });

/** Weekly training plans: trainers compose them from visible trainings. */
export class TrainingPlanService {
  constructor(private readonly deps: { db: Db; clock: Clock; trainings: TrainingService }) {}

  /** `include`: the relations the answer carries (its trainings' trainings), read after the commit as a lookup reads them. */
  async create(actor: Actor, readInput: InputReader<PlanInput>, include: PlanInclude = {}): Promise<TrainingPlanDto> {
    const trainer = requireTrainer(actor, TRAINERS_ONLY);
    const input = readInput();
    await this.deps.trainings.ensureVisible(trainer, trainingIdsOf(input));
    const { db, clock } = this.deps;
    const id = await db.transaction(async (tx) => {
      const now = clock.now();
      const row = await trainingPlanRepository.insert(tx, { ...fieldsOf(input), createdBy: trainer.id, createdAt: now, updatedAt: now });
      await writeTrainings(tx, row.id, input);
      await emit(tx, now, { type: "training_plan.created", planId: row.id, ownerId: trainer.id });
      return row.id;
    });
    return treeToDto(await this.readTree(trainer, id, include));
  }

  /** `include`: as for create. */
  async update(actor: Actor, id: number, readInput: InputReader<PlanInput>, include: PlanInclude = {}): Promise<TrainingPlanDto> {
    const caller = requireUser(actor);
    await this.loadOwn(caller, id);
    const input = readInput();
    await this.deps.trainings.ensureVisible(caller, trainingIdsOf(input));
    const { db, clock } = this.deps;
    await db.transaction(async (tx) => {
      const now = clock.now();
      const before = await trainingPlanRepository.lock(tx, id);
      if (!before) throw notFound(PLAN_NOT_FOUND);
      await trainingPlanRepository.update(tx, id, { ...fieldsOf(input), updatedAt: now });
      // The parties of its live assignments see its trainings and their exercises: those it drops (read as DELETE
      // unless they still see them otherwise) and those it takes up (kept as they are until this commits).
      await emit(tx, now, { type: "training_plan.trainings_removed", planId: id });
      await writeTrainings(tx, id, input);
      await this.lockContent(tx, id);
      await emit(tx, now, { type: "training_plan.updated", planId: id });
    });
    return treeToDto(await this.readTree(caller, id, include));
  }

  /** Deletes a plan: 409 while a PENDING or ACTIVE assignment uses it; finished assignments go with it. */
  async delete(actor: Actor, id: number): Promise<void> {
    const caller = requireUser(actor);
    await this.loadOwn(caller, id);
    await this.deps.db.transaction(async (tx) => {
      if (!(await trainingPlanRepository.lock(tx, id))) return;
      if (await trainingPlanRepository.hasLiveAssignments(tx, id)) throw conflict(PLAN_ASSIGNED);
      const now = this.deps.clock.now();
      await emit(tx, now, { type: "training_plan.deleted", planIds: sql`${id}` });
      await trainingPlanRepository.delete(tx, id);
    });
  }

  /**
   * The plan an assignment by `trainerId` points at, read under the plan's row lock (null: no such plan). The
   * trainer's own plan as it is. Another trainer's plan (public, or any for an administrator) as a private copy the
   * assigning trainer owns, with private copies of the trainings in it the assigning trainer did not create: the
   * author keeps editing and deleting the original and its trainings, and none of that reaches the students, who
   * follow the copy as it was when assigned. Each assignment gets its own copy. Exercises are not copied: they are
   * library entries trainings refer to (any trainer composes trainings of another's public exercises, and one in use
   * cannot be deleted, contract §4), while everything the student is prescribed — days, trainings, exercises in
   * order, sets, repetitions, weight, rest, notes — lives in the copied rows.
   */
  async planToAssign(tx: Db, trainerId: number, planId: number, now: Date): Promise<PlanRow | null> {
    const original = await trainingPlanRepository.lock(tx, planId);
    if (!original || original.createdBy === trainerId) return original;
    const items = await trainingPlanRepository.trainingsOf(tx, [planId]);
    const trainingCopies = await this.deps.trainings.copyForOwner(
      tx,
      items.map((item) => item.trainingId),
      trainerId,
      now,
    );
    const copy = await trainingPlanRepository.insert(tx, {
      name: original.name,
      description: original.description,
      difficulty: original.difficulty,
      goal: original.goal,
      durationWeeks: original.durationWeeks,
      isPublic: false,
      createdBy: trainerId,
      createdAt: now,
      updatedAt: now,
    });
    await trainingPlanRepository.replaceTrainings(
      tx,
      copy.id,
      items.map((item) => ({ trainingId: trainingCopies.get(item.trainingId) ?? item.trainingId, dayOfWeek: item.dayOfWeek, order: item.order })),
    );
    return copy;
  }

  /** The plan, its visibility checked and its trainings read in one statement, with the relations `include` names. */
  async get(actor: Actor, id: number, include: PlanInclude = {}): Promise<TrainingPlanDto> {
    const found = await this.readTree(requireUser(actor), id, include);
    if (!found.visible) throw forbidden();
    return treeToDto(found);
  }

  /** A page of the plans the caller may see, each with its trainings and the relations `include` names, in one statement. */
  async list(actor: Actor, readQuery: InputReader<PlanListQuery>, include: PlanInclude = {}): Promise<Page<TrainingPlanDto>> {
    const caller = requireUser(actor);
    const { filter, page: request } = readQuery();
    const { rows, total } = await trainingPlanRepository.list(mayBeStale(this.deps.db), caller, filter, request, include);
    return toPage(rows.map(treeToDto), total, request);
  }

  /** The plans a trainer created (trainers only); `include` as for list. */
  async listMine(actor: Actor, readPage: InputReader<PageRequest>, include: PlanInclude = {}): Promise<Page<TrainingPlanDto>> {
    const trainer = requireTrainer(actor, TRAINERS_ONLY);
    const request = readPage();
    const { rows, total } = await trainingPlanRepository.list(mayBeStale(this.deps.db), trainer, { createdBy: trainer.id }, request, include);
    return toPage(rows.map(treeToDto), total, request);
  }

  /** Plans by id, in the order asked, with the relations `include` names; null where missing or not visible (one statement). */
  async findVisibleByIds(actor: Actor, ids: readonly number[], include: PlanInclude = {}): Promise<(TrainingPlanDto | null)[]> {
    const found = await trainingPlanRepository.findVisibleWithTrainings(this.deps.db, requireUser(actor), ids, include);
    const byId = new Map(found.map((tree) => [tree.plan.id, treeToDto(tree)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** The plan if the caller may see it, else 404 / 403 (also what assigning a plan requires). */
  async loadVisible(caller: UserActor, id: number): Promise<PlanRow> {
    const row = await trainingPlanRepository.findById(this.deps.db, id);
    if (!row) throw notFound(PLAN_NOT_FOUND);
    if (!(await this.isVisible(caller, row))) throw forbidden();
    return row;
  }

  /** The plan by id, whether `caller` may see it, and its trainings with what `include` names; 404 when missing. */
  private async readTree(caller: UserActor, id: number, include: PlanInclude) {
    const found = await trainingPlanRepository.findTree(this.deps.db, caller, id, include);
    if (!found) throw notFound(PLAN_NOT_FOUND);
    return found;
  }

  /**
   * The plans a user created (contract §15). Erasure deletes the private ones (the assignments of them go too, and
   * their parties hear of it); public ones stay, credited to the anonymized account.
   */
  readonly personalData: PersonalDataHolder<typeof trainingPlanExport> = {
    exportSections: trainingPlanExport,
    exportPersonalData: async (db, userId) => {
      const plans = await trainingPlanRepository.plansCreatedBy(db, userId);
      const items = await trainingPlanRepository.trainingsOf(
        db,
        plans.map((plan) => plan.id),
      );
      return {
        trainingPlans: plans.map((plan) =>
          toDto(
            plan,
            items.filter((item) => item.planId === plan.id).map(({ planId: _p, ...item }) => item),
          ),
        ),
      };
    },
    erasePersonalData: async (tx, userId, now) => {
      await emit(tx, now, { type: "training_plan.deleted", planIds: trainingPlanRepository.privatePlansOf(userId) });
      await trainingPlanRepository.deletePrivatePlansOf(tx, userId);
    },
  };

  /** The change feed's plans (contract §13.3): those the reader created or has a live assignment of. */
  readonly feed: FeedSource<TrainingPlanDto> = {
    load: async (reader, ids) =>
      new Map(
        (await trainingPlanRepository.findInFeedWithTrainings(this.deps.db, reader.id, ids)).map(({ plan, trainings }) => [plan.id, toDto(plan, trainings)]),
      ),
    idsAfter: (reader, afterId, limit) => trainingPlanRepository.idsInFeedAfter(this.deps.db, reader.id, afterId, limit),
  };

  /**
   * Keeps the trainings a plan schedules and their exercises from edits (FOR SHARE) until the end of `tx`, which gives
   * them to new readers of the change feed: an edit committed before is seen here, one waiting finds them in its
   * audience. Taken after the plan's own row lock (plan, then trainings, then exercises: every writer's order).
   */
  async lockContent(tx: Db, planId: number): Promise<void> {
    await this.deps.trainings.lockForShareWithExercises(tx, trainingIdsOfPlans(sql`${planId}`));
  }

  private async isVisible(caller: UserActor, row: PlanRow): Promise<boolean> {
    return contentVisibleAtOnce(caller, row) || trainingPlanRepository.isVisible(this.deps.db, caller, row.id);
  }

  private async loadOwn(caller: UserActor, id: number): Promise<PlanRow> {
    const row = await trainingPlanRepository.findById(this.deps.db, id);
    if (!row) throw notFound(PLAN_NOT_FOUND);
    requireOwnerOrAdmin(caller, row.createdBy);
    return row;
  }
}

function toDto(row: PlanRow & CreatorIncluded, trainings: PlanTrainingDto[]): TrainingPlanDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    trainings,
    isPublic: row.isPublic,
    difficulty: row.difficulty,
    goal: row.goal,
    duration: row.durationWeeks,
    ...(row.creator !== undefined && { creator: row.creator }),
  };
}

/** A plan read with its trainings as trainingsJson wrote them, each with its `training` when included (null: not visible). */
function treeToDto({ plan, trainings, creator }: { plan: PlanRow; trainings: PlanTrainingJson[] } & CreatorIncluded): TrainingPlanDto {
  return toDto(
    { ...plan, creator },
    trainings.map(({ training, ...item }): PlanTrainingDto =>
      training === undefined ? item : { ...item, training: training && trainingFromJson(training as Record<string, unknown>) },
    ),
  );
}

/** The trainings a plan schedules: each must exist and be visible to its author (contract §5). */
function trainingIdsOf(input: PlanInput): number[] {
  return [...new Set(input.trainings.map((item) => item.trainingId))];
}

function fieldsOf(input: PlanInput) {
  return {
    name: input.name,
    description: input.description,
    isPublic: input.isPublic,
    difficulty: input.difficulty ?? null,
    goal: input.goal ?? null,
    durationWeeks: input.duration ?? null,
  };
}

/** A plan's trainings; a training deleted since the visibility check is one not found, as the check says. */
function writeTrainings(tx: Db, planId: number, input: PlanInput): Promise<void> {
  return unlessForeignKeyRefuses(
    () => trainingPlanRepository.replaceTrainings(tx, planId, input.trainings),
    () => notFound(TRAINING_NOT_FOUND),
  );
}
