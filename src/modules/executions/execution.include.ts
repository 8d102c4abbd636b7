import type { EmbeddedRelation, EmbeddingContext } from "../../graphql/embedded.js";
import { listReader } from "../../graphql/arguments.js";
import { sameArguments, type Selection } from "../../graphql/look-ahead.js";
import { totalShown, type OrderBy, type PageInput } from "../../graphql/page.js";
import type { EmbeddedRead } from "../../platform/db/embedded-read.js";
import { AppError } from "../../platform/errors.js";
import type { Page } from "../../platform/paging.js";
import type { TrainingExecutionSummaryDto } from "./execution.dto.js";
import { trainingExecutionPaging, userTrainingExecutionFilter } from "./execution.inputs.js";
import { TRAINING_EXECUTION_SUMMARY_KEYS } from "./execution-listing.repository.js";
import type { ExecutionFilter } from "./execution.types.js";

/** The arguments of `User.executions`. */
interface UserExecutionsArguments {
  filter?: ExecutionFilter | null;
  page?: PageInput | null;
  orderBy?: OrderBy | null;
}

/** `User.executions`'s arguments as its listing reads them (the same refusals). */
const userExecutionsQuery = (args: Record<string, unknown>) => {
  const { filter, page, orderBy } = args as UserExecutionsArguments;
  return listReader(trainingExecutionPaging, userTrainingExecutionFilter, filter, page, orderBy);
};

/** What TrainingExecution's fields other than a page row's keys read of it (a listing leaves the last three null). */
const SUMMARY_NEEDS = { duration: ["durationSeconds"], userName: [], exerciseExecutions: [], newRecords: [] };

/** Where a user carries its pages of executions: `executions_0`, `executions_1`, … one per distinct arguments asked. */
const PAGE = "executions_";

/** A user's page of executions, and the arguments it was read for. */
interface PageFor {
  args: Record<string, unknown>;
  page: Page<TrainingExecutionSummaryDto> | AppError;
}

/**
 * `User.executions`, read in every statement that reads users (a user by id, a trainer's page of students): declared
 * on the field's resolver, the users module embeds it without naming this one (embeddedRelations).
 */
export const userExecutions: EmbeddedRelation = {
  embed: embeddedUserExecutions,
  answer: userExecutionsAnswer,
};

/**
 * `User.executions` as a selection of users asks it: one read per distinct arguments it is asked with (aliases may ask
 * several pages), each embedded under its own name; arguments refused are read as their refusal.
 */
function embeddedUserExecutions(selection: Selection, ctx: EmbeddingContext): Record<string, EmbeddedRead<PageFor>> {
  const keys = selection.field("content")?.keysOf(TRAINING_EXECUTION_SUMMARY_KEYS, SUMMARY_NEEDS);
  const counted = totalShown(selection);
  return Object.fromEntries(
    selection.argumentSets().map((args, index) => {
      const read = ctx.services.executions.embeddedUserTrainingExecutions(ctx.actor, userExecutionsQuery(args), counted, keys);
      return [`${PAGE}${index}`, { ...read, answer: (json: unknown) => ({ args, page: read.answer(json) }) }];
    }),
  );
}

/** The page of `user`'s executions read for `args`, undefined when none was; a refusal is thrown. */
function userExecutionsAnswer(user: object, args: Record<string, unknown>): Page<TrainingExecutionSummaryDto> | undefined {
  const carried = user as Record<string, PageFor | undefined>;
  for (let index = 0; carried[`${PAGE}${index}`]; index++) {
    const { args: readFor, page } = carried[`${PAGE}${index}`]!;
    if (!sameArguments(readFor, args)) continue;
    if (page instanceof AppError) throw page;
    return page;
  }
  return undefined;
}
