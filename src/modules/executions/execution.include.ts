import type { FieldNode, GraphQLResolveInfo } from "graphql";
import { listReader } from "../../graphql/arguments.js";
import { sameArguments, type Selection } from "../../graphql/look-ahead.js";
import type { EmbeddedRelation, ReadAheadContext } from "../../graphql/read-ahead.js";
import { totalShown, type PageInput } from "../../graphql/page.js";
import type { EmbeddedRead } from "../../platform/db/embedded-read.js";
import { AppError } from "../../platform/errors.js";
import type { Page } from "../../platform/paging.js";
import type { TrainingExecutionSummaryDto } from "./execution.dto.js";
import { trainingExecutionPaging, userTrainingExecutionFilter } from "./execution.inputs.js";
import { TRAINING_EXECUTION_SUMMARY_KEYS } from "./execution-listing.repository.js";
import type { ExecutionFilter } from "./execution.types.js";

/** The arguments of `User.executions`. */
export interface UserExecutionsArguments {
  filter?: ExecutionFilter | null;
  page?: PageInput | null;
}

/** `User.executions`'s arguments as its listing reads them (the same refusals). */
export const userExecutionsQuery = (args: UserExecutionsArguments) => listReader(trainingExecutionPaging, userTrainingExecutionFilter, args.filter, args.page);

/** What TrainingExecution's fields other than a page row's keys read of it (a listing leaves the last three null). */
const SUMMARY_NEEDS = { duration: ["durationSeconds"], userName: [], exerciseExecutions: [], newRecords: [] };

/** Where a user read along with its parent carries its executions read ahead. */
const AHEAD = "executionsAhead";

/** A user's page of executions read ahead, and for which arguments: those of `nodes`, the field's nodes in the request. */
interface ExecutionsAhead {
  args: UserExecutionsArguments;
  nodes: readonly FieldNode[];
  page: Page<TrainingExecutionSummaryDto> | AppError;
}

/**
 * `User.executions` read ahead in the statement of another module that reads the users (a trainer's page of students):
 * declared on the field's resolver, that module embeds it without naming this one (embeddedRelations).
 */
export const userExecutionsAhead: EmbeddedRelation = {
  // What the field reads of a user when its page was not read ahead along with it: the id its loader takes.
  needs: ["id"],
  embed: embeddedUserExecutions,
  answer: userExecutionsReadAhead,
};

/**
 * `User.executions` as a selection of users asks it, read ahead in the statement that reads those users: the read to
 * embed under its name (none when the field is selected with different arguments, or these are refused: it then
 * resolves through its loader, which answers the refusal).
 */
function embeddedUserExecutions(selection: Selection, ctx: ReadAheadContext): Record<string, EmbeddedRead<ExecutionsAhead>> {
  const args = selection.arguments() as UserExecutionsArguments | undefined;
  if (!args) return {};
  const keys = selection.field("content")?.keysOf(TRAINING_EXECUTION_SUMMARY_KEYS, SUMMARY_NEEDS);
  const read = ctx.services.executions.embeddedUserTrainingExecutions(ctx.actor, userExecutionsQuery(args), totalShown(selection), keys);
  if (!read) return {};
  const nodes = selection.nodes;
  return { [AHEAD]: { ...read, answer: (json) => ({ args, nodes, page: read.answer(json) }) } };
}

/**
 * The page of `user`'s executions read ahead for `args`, undefined when none was (the loader answers it then); the
 * refusal read ahead is thrown, as the loader would. Arguments of a node the read ahead was made for are its own (one
 * request, one set of variables, and every node of it had the same): only others are compared, key by key.
 */
function userExecutionsReadAhead(
  user: object,
  args: UserExecutionsArguments,
  info: Pick<GraphQLResolveInfo, "fieldNodes">,
): Page<TrainingExecutionSummaryDto> | undefined {
  const ahead = (user as { [AHEAD]?: ExecutionsAhead })[AHEAD];
  if (!ahead || !(ahead.nodes.includes(info.fieldNodes[0]) || sameArguments(ahead.args, args))) return undefined;
  if (ahead.page instanceof AppError) throw ahead.page;
  return ahead.page;
}
