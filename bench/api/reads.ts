/**
 * The reads bench:api measures (issues 11 and 17), as requests to the service, and for the GraphQL ones the same rows
 * asked of PostGraphile in its own schema, with both answers brought to one shape so they can be compared.
 */
import type { ApiWorld } from "./seed.js";

export interface Call {
  method: "GET" | "POST";
  path: string;
  token: string;
  body?: string;
  /** An answer containing this failed (GraphQL answers its errors with 200). */
  failOn?: string;
}

export interface Read {
  label: string;
  service: Call;
  /** The same rows through PostGraphile, and each side's answer in one shape, for the equality check. */
  reference?: { call: Call; shape: { service(answer: unknown): unknown; postgraphile(answer: unknown): unknown } };
  /** What issue 34 asks of this read; bench:api prints whether one run meets it. */
  target?: Target;
}

export interface Target {
  /**
   * The comparator's CPU time per answer (its server's + PostgreSQL's) over the service's, at least: PostGraphile
   * answering the same rows, or the bare baseline answering one row by id.
   */
  cheaperThan: { comparator: "postgraphile" | "baseline"; by: number };
  /** p99 latency under this many ms at an open-loop rate of half the service's own measured capacity for the read. */
  p99UnderMsAtHalfCapacity?: number;
}

/** The GraphQL reads' latency target, and REST's one row by id's (issue 34). */
const GRAPHQL_P99_MS = 50;
const REST_BY_ID_P99_MS = 25;

export interface Tokens {
  trainer: string;
  student: string;
  /** A personal access token of the trainer with every scope: the same reads, scope-checked and budgeted (contract §18). */
  trainerPersonal: string;
}

const graphql = (token: string, query: string, variables: Record<string, unknown> = {}): Call => ({
  method: "POST",
  path: "/graphql",
  token,
  body: JSON.stringify({ query: query.replace(/\s+/g, " ").trim(), variables }),
  failOn: '"errors"',
});

const get = (token: string, path: string): Call => ({ method: "GET", path, token });

interface Named {
  name: string;
}

/** `{ data: { <field>: … } }` of a GraphQL answer. */
const data = <T>(answer: unknown, field: string) => (answer as { data: Record<string, T> }).data[field];
const nodes = <T>(connection: { nodes: T[] }) => connection.nodes;
/** Both sides' timestamps (the service's `…000Z`, PostgreSQL's `…000000+00:00`) as one ISO string. */
const instant = (value: string) => new Date(value).toISOString();

export function apiReads(world: ApiWorld, tokens: Tokens): Read[] {
  const student = world.students[0];
  const planId = world.planIds[0];
  return [
    {
      label: "GraphQL trainingPlan(id) with trainings, exercises, creators",
      target: { cheaperThan: { comparator: "postgraphile", by: 1.25 }, p99UnderMsAtHalfCapacity: GRAPHQL_P99_MS },
      service: graphql(
        tokens.trainer,
        `
          query Plan($id: Int!) {
            trainingPlan(id: $id) {
              name
              trainings {
                training {
                  name
                  exercises {
                    exercise {
                      name
                      creator {
                        name
                      }
                    }
                  }
                }
              }
            }
          }
        `,
        { id: planId },
      ),
      reference: {
        call: graphql(
          tokens.trainer,
          `
            query Plan($id: Int!) {
              trainingPlanByRowId(rowId: $id) {
                name
                planTrainingsByPlanId(orderBy: [POSITION_ASC]) {
                  nodes {
                    trainingByTrainingId {
                      name
                      trainingExercisesByTrainingId(orderBy: [POSITION_ASC]) {
                        nodes {
                          exerciseByExerciseId {
                            name
                            userByCreatedBy {
                              name
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          `,
          { id: planId },
        ),
        shape: {
          service(answer) {
            type Plan = Named & { trainings: { training: Named & { exercises: { exercise: Named & { creator: Named } }[] } }[] };
            const plan = data<Plan>(answer, "trainingPlan");
            return {
              name: plan.name,
              trainings: plan.trainings.map(({ training }) => ({
                name: training.name,
                exercises: training.exercises.map(({ exercise }) => ({ name: exercise.name, creator: exercise.creator.name })),
              })),
            };
          },
          postgraphile(answer) {
            type Exercise = Named & { userByCreatedBy: Named };
            type Training = Named & { trainingExercisesByTrainingId: { nodes: { exerciseByExerciseId: Exercise }[] } };
            type Plan = Named & { planTrainingsByPlanId: { nodes: { trainingByTrainingId: Training }[] } };
            const plan = data<Plan>(answer, "trainingPlanByRowId");
            return {
              name: plan.name,
              trainings: nodes(plan.planTrainingsByPlanId).map(({ trainingByTrainingId: training }) => ({
                name: training.name,
                exercises: nodes(training.trainingExercisesByTrainingId).map(({ exerciseByExerciseId: exercise }) => ({
                  name: exercise.name,
                  creator: exercise.userByCreatedBy.name,
                })),
              })),
            };
          },
        },
      },
    },
    {
      label: "GraphQL exercises(page: {size: 20}) with creators",
      target: { cheaperThan: { comparator: "postgraphile", by: 1.25 }, p99UnderMsAtHalfCapacity: GRAPHQL_P99_MS },
      service: graphql(
        tokens.trainer,
        `
          query Exercises {
            exercises(page: { size: 20 }) {
              content {
                id
                name
                creator {
                  name
                }
              }
            }
          }
        `,
      ),
      reference: {
        // The service's default order: name, then id.
        call: graphql(
          tokens.trainer,
          `
            query Exercises {
              allExercises(first: 20, orderBy: [NAME_ASC, PRIMARY_KEY_ASC]) {
                nodes {
                  rowId
                  name
                  userByCreatedBy {
                    name
                  }
                }
              }
            }
          `,
        ),
        shape: {
          service: (answer) =>
            data<{ content: (Named & { id: number; creator: Named })[] }>(answer, "exercises").content.map((e) => ({
              id: e.id,
              name: e.name,
              creator: e.creator.name,
            })),
          postgraphile: (answer) =>
            nodes(data<{ nodes: (Named & { rowId: number; userByCreatedBy: Named })[] }>(answer, "allExercises")).map((e) => ({
              id: e.rowId,
              name: e.name,
              creator: e.userByCreatedBy.name,
            })),
        },
      },
    },
    {
      label: "GraphQL myStudents(page: {size: 20}) with 5 executions each",
      target: { cheaperThan: { comparator: "postgraphile", by: 2 }, p99UnderMsAtHalfCapacity: GRAPHQL_P99_MS },
      service: graphql(
        tokens.trainer,
        `
          query Dashboard {
            myStudents(page: { size: 20 }) {
              content {
                student {
                  id
                  name
                  executions(page: { size: 5 }) {
                    content {
                      id
                      trainingName
                      startTime
                      duration
                      completed
                    }
                  }
                }
              }
            }
          }
        `,
      ),
      reference: {
        // The service's orders: links by creation, newest first; executions by start, newest first (ties by id).
        call: graphql(
          tokens.trainer,
          `
            query Dashboard($trainer: Int!) {
              allPersonalStudentLinks(first: 20, condition: { personalId: $trainer, status: "ACTIVE" }, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC]) {
                nodes {
                  userByStudentId {
                    rowId
                    name
                    trainingExecutionsByUserId(first: 5, orderBy: [START_TIME_DESC, PRIMARY_KEY_DESC]) {
                      nodes {
                        rowId
                        trainingName
                        startTime
                        durationSeconds
                        completed
                      }
                    }
                  }
                }
              }
            }
          `,
          { trainer: world.trainer.id },
        ),
        shape: {
          service(answer) {
            type Execution = { id: number; trainingName: string; startTime: string; duration: number; completed: boolean };
            type Link = { student: Named & { id: number; executions: { content: Execution[] } } };
            return data<{ content: Link[] }>(answer, "myStudents").content.map(({ student: s }) => ({
              id: s.id,
              name: s.name,
              executions: s.executions.content.map((e) => ({ ...e, startTime: instant(e.startTime) })),
            }));
          },
          postgraphile(answer) {
            type Execution = { rowId: number; trainingName: string; startTime: string; durationSeconds: number; completed: boolean };
            type Link = { userByStudentId: Named & { rowId: number; trainingExecutionsByUserId: { nodes: Execution[] } } };
            return nodes(data<{ nodes: Link[] }>(answer, "allPersonalStudentLinks")).map(({ userByStudentId: s }) => ({
              id: s.rowId,
              name: s.name,
              executions: nodes(s.trainingExecutionsByUserId).map((e) => ({
                id: e.rowId,
                trainingName: e.trainingName,
                startTime: instant(e.startTime),
                duration: e.durationSeconds,
                completed: e.completed,
              })),
            }));
          },
        },
      },
    },
    {
      // The floor of a GraphQL read (one row by id, as REST's first read and the baseline): what the pipeline costs.
      label: "GraphQL exercise(id)",
      service: graphql(
        tokens.trainer,
        `
          query Exercise($id: Int!) {
            exercise(id: $id) {
              id
              name
            }
          }
        `,
        { id: world.exerciseIds[0] },
      ),
      reference: {
        call: graphql(
          tokens.trainer,
          `
            query Exercise($id: Int!) {
              exerciseByRowId(rowId: $id) {
                rowId
                name
              }
            }
          `,
          { id: world.exerciseIds[0] },
        ),
        shape: {
          service: (answer) => data<Named & { id: number }>(answer, "exercise"),
          postgraphile(answer) {
            const exercise = data<Named & { rowId: number }>(answer, "exerciseByRowId");
            return { id: exercise.rowId, name: exercise.name };
          },
        },
      },
    },
    {
      // The floor again with a personal token: what its scope checks and its budget's points cost (one statement).
      label: "GraphQL exercise(id), personal token",
      service: graphql(tokens.trainerPersonal, "query Exercise($id: Int!) { exercise(id: $id) { id name } }", { id: world.exerciseIds[0] }),
    },
    {
      label: "REST GET /api/exercises/{id}",
      service: get(tokens.trainer, `/api/exercises/${world.exerciseIds[0]}`),
      target: { cheaperThan: { comparator: "baseline", by: 0.6 }, p99UnderMsAtHalfCapacity: REST_BY_ID_P99_MS },
    },
    { label: "REST GET /api/exercises/{id}, personal token", service: get(tokens.trainerPersonal, `/api/exercises/${world.exerciseIds[0]}`) },
    {
      label: "REST GET /api/exercises?size=20",
      service: get(tokens.trainer, "/api/exercises?size=20"),
      target: { cheaperThan: { comparator: "baseline", by: 0.5 } },
    },
    {
      label: "REST GET /api/trainings/{id}/statistics?userId= (trainer)",
      service: get(tokens.trainer, `/api/trainings/${world.trainingIds[0]}/statistics?userId=${student.id}`),
      target: { cheaperThan: { comparator: "baseline", by: 0.4 } },
    },
    {
      label: "REST GET /api/users/metrics (student)",
      service: get(tokens.student, "/api/users/metrics"),
      target: { cheaperThan: { comparator: "baseline", by: 0.4 } },
    },
  ];
}

/** The baseline's one request: a user row by id. */
export const baselineCall = (world: ApiWorld, tokens: Tokens): Call => get(tokens.trainer, `/users/${world.trainer.id}`);
