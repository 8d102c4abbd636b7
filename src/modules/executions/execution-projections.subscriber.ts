import type { EventSubscriber } from "../events/emit.js";
import { executionProjectionsRepository } from "./execution-projections.repository.js";

/**
 * Keeps the read models of training sessions as they are logged (`exercise_executions.logged` of a session), in the
 * log's transaction, which holds the user's logging lock: each exercise execution added to its training's month, the
 * week of a completed session marked. An exercise logged on its own is in neither.
 */
export const projectExecutions: EventSubscriber = async (tx, _at, events) => {
  for (const event of events) {
    if (event.type !== "exercise_executions.logged" || !event.session) continue;
    const { trainingExecutionId, trainingId, startTime, completed } = event.session;
    for (const { execution } of event.exercises) await executionProjectionsRepository.addToTrainingMonth(tx, execution, trainingId, startTime);
    if (completed) await executionProjectionsRepository.markCompletedWeek(tx, trainingExecutionId);
  }
};
