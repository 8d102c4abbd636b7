import { getNullableType, isEnumType, isListType, isNonNullType, isObjectType, type GraphQLObjectType, type GraphQLOutputType } from "graphql";
import { getMetadataStorage } from "type-graphql";
import { expect, it } from "vitest";
import { ZodArray, ZodDefault, ZodEnum, ZodLiteral, ZodNullable, ZodObject, ZodOptional, type z } from "zod";
import { buildGraphqlSchema } from "../../src/graphql-schema.js";
import { adherenceSchema, studentAdherenceSchema } from "../../src/modules/adherence/adherence.dto.js";
import { invoiceSchema, paymentSchema, pixTransactionSchema, planSchema, subscriptionSchema } from "../../src/modules/billing/billing.dto.js";
import { boletoSchema } from "../../src/modules/billing/boleto.js";
import { linkSchema, receivedInviteSchema, sentInviteSchema } from "../../src/modules/coaching/coaching.dto.js";
import { recentRecordSchema, trainerDashboardSchema } from "../../src/modules/dashboard/dashboard.dto.js";
import {
  exerciseExecutionSchema,
  exerciseProgressSchema,
  personalRecordSchema,
  newRecordSchema,
  setSchema,
  trainingExecutionSchema,
  trainingExecutionSummarySchema,
  trainingStatisticsSchema,
  userMetricsSchema,
} from "../../src/modules/executions/execution.dto.js";
import { exerciseListItemSchema, exerciseSchema } from "../../src/modules/exercises/exercise.dto.js";
import { recordSchema } from "../../src/modules/records/records.dto.js";
import { changeFeedSchema, changeSchema } from "../../src/modules/sync/change-feed.dto.js";
import { planAssignmentSchema, planTrainingSchema, trainingPlanSchema } from "../../src/modules/training-plans/training-plan.dto.js";
import { trainingExerciseSchema, trainingListItemSchema, trainingSchema } from "../../src/modules/trainings/training.dto.js";
import { messageSchema, refreshedTokenSchema, sessionSchema, userSchema, userSummarySchema } from "../../src/modules/users/user.dto.js";
import { createdEndpointSchema, deliverySchema, endpointSchema, rotatedSecretSchema } from "../../src/modules/webhooks/webhook.dto.js";

/*
 * The zod DTO is the one declaration of an answer's shape: each GraphQL object type answering what a REST answer does
 * implements its DTO (src/graphql/answer-shapes.ts names the deliberate differences), and here its fields in the built
 * schema are the zod schema's keys, so a field added to one surface and not the other fails.
 */

type Shape = z.ZodObject;

/**
 * Each GraphQL object type with a REST twin, and the zod schema of that answer: several when the type stands for several
 * REST shapes (MergedShapes: a whole and its list item, or two views; a union's branches), and then its fields are the
 * keys of any.
 */
const twins: Record<string, Shape | readonly Shape[]> = {
  User: userSchema,
  UserSummary: userSummarySchema,
  AuthPayload: sessionSchema,
  TokenPayload: refreshedTokenSchema,
  MessagePayload: messageSchema,
  Adherence: adherenceSchema,
  AdherenceWeek: adherenceSchema.shape.weeks.element,
  AssignmentAdherence: adherenceSchema.shape.assignments.element,
  StudentAdherence: studentAdherenceSchema,
  TrainerDashboard: trainerDashboardSchema,
  DashboardStudents: trainerDashboardSchema.shape.students,
  DashboardAssignments: trainerDashboardSchema.shape.assignments,
  DashboardSessions: trainerDashboardSchema.shape.sessionsThisWeek,
  StudentAttention: trainerDashboardSchema.shape.needsAttention.element,
  RecentRecord: recentRecordSchema,
  DashboardSubscription: trainerDashboardSchema.shape.subscription.unwrap(),
  ExerciseRecord: recordSchema,
  NewRecord: newRecordSchema,
  SubscriptionPlan: planSchema,
  PixTransaction: pixTransactionSchema,
  Boleto: boletoSchema,
  UserSubscription: subscriptionSchema,
  Payment: paymentSchema,
  Invoice: invoiceSchema,
  Invite: [sentInviteSchema, receivedInviteSchema],
  Link: linkSchema,
  ExecutionSet: setSchema,
  TrainingExerciseExecution: trainingExecutionSchema.shape.exerciseExecutions.element,
  TrainingExecution: [trainingExecutionSchema, trainingExecutionSummarySchema],
  ExerciseExecution: exerciseExecutionSchema,
  TrainingStatistics: trainingStatisticsSchema,
  ExerciseStatistics: trainingStatisticsSchema.shape.exerciseStatistics.element,
  TrainingProgressPoint: trainingStatisticsSchema.shape.progressData.element,
  ExerciseProgress: exerciseProgressSchema,
  ExerciseProgressPoint: exerciseProgressSchema.shape.progressData.element,
  RecordValue: exerciseProgressSchema.shape.personalRecord.unwrap(),
  PersonalRecord: [personalRecordSchema, userMetricsSchema.shape.personalRecords.element],
  UserMetrics: userMetricsSchema,
  WeeklyProgress: userMetricsSchema.shape.weeklyProgress.element,
  WeightEntry: userMetricsSchema.shape.weightHistory.element,
  Exercise: [exerciseSchema, exerciseListItemSchema],
  // A union: every branch (one per entity's UPSERT, and DELETE) has the same keys.
  Change: changeSchema.options,
  ChangeFeedPage: changeFeedSchema,
  PlanTraining: planTrainingSchema,
  TrainingPlan: trainingPlanSchema,
  PlanAssignment: planAssignmentSchema,
  TrainingExercise: trainingExerciseSchema,
  Training: [trainingSchema, trainingListItemSchema],
  WebhookEndpoint: endpointSchema,
  CreatedWebhookEndpoint: createdEndpointSchema,
  WebhookSecret: rotatedSecretSchema,
  WebhookDelivery: deliverySchema,
};

/**
 * GraphQL-only fields of twins: edges a @FieldResolver follows from the object, or its statement reads along with it
 * (Embedded), to the related object where REST gives
 * its id (Exercise.creator for createdBy, Link.student for studentId), or to what REST answers at an endpoint of its own
 * (Exercise.progress: GET /exercises/{id}/progress; User.metrics: GET /users/metrics).
 */
const edges: Record<string, readonly string[]> = {
  User: ["adherence", "executions", "metrics", "personalRecords", "personals", "records", "students", "subscription"],
  Exercise: ["creator", "progress", "records"],
  Training: ["creator", "statistics"],
  TrainingExercise: ["exercise"],
  TrainingPlan: ["assignments", "creator"],
  PlanTraining: ["training"],
  PlanAssignment: ["personal", "plan", "student"],
  Invite: ["personal"],
  Link: ["personal", "student"],
};

/**
 * Object types without a REST twin: the pages of root lists (PageOf: the part of REST's page object GraphQL clients use;
 * their items are twins), the live update of a record set (AchievedRecord: an ExerciseRecord and whose it is), and a
 * tool's GraphQL budget (RateLimit: REST reports its own in RateLimit header fields).
 */
const graphqlOnly = [
  "AchievedRecord",
  "ExercisePage",
  "InvitePage",
  "InvoicePage",
  "LinkPage",
  "PaymentPage",
  "PlanAssignmentPage",
  "RateLimit",
  "StudentAdherencePage",
  "TrainingExecutionPage",
  "TrainingPage",
  "TrainingPlanPage",
  "WebhookDeliveryPage",
  "WebhookEndpointPage",
];

const schema = buildGraphqlSchema();

const objectType = (name: string): GraphQLObjectType => {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type of the schema`);
  return type;
};

it("every object type is the twin of a REST answer or declared GraphQL-only", () => {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((type) => type?.name));
  const objectTypes = Object.values(schema.getTypeMap())
    .filter((type) => isObjectType(type) && !type.name.startsWith("__") && !roots.has(type.name))
    .map((type) => type.name);
  const declared = [...Object.keys(twins), ...graphqlOnly];

  expect(
    objectTypes.filter((name) => !declared.includes(name)),
    "object types neither twinned nor declared GraphQL-only",
  ).toEqual([]);
  expect(
    declared.filter((name) => !objectTypes.includes(name)),
    "declared types the schema lacks",
  ).toEqual([]);
});

it("a twin's fields are its REST answer's keys, plus its declared edges only", () => {
  const drift = Object.entries(twins).flatMap(([name, shapes]) => {
    const restKeys = new Set([shapes].flat().flatMap((shape) => Object.keys(shape.shape)));
    const graphqlFields = Object.keys(objectType(name).getFields());
    const graphqlOnlyFields = new Set(edges[name]);
    return [
      ...[...restKeys].filter((key) => !graphqlFields.includes(key)).map((key) => `${name}.${key}: in REST, not in GraphQL`),
      ...graphqlFields.filter((field) => !restKeys.has(field) && !graphqlOnlyFields.has(field)).map((field) => `${name}.${field}: in GraphQL, not in REST`),
    ];
  });
  expect(drift).toEqual([]);
});

it("the declared edges are @FieldResolver fields or relations read with their parent (Embedded), not properties the REST answer lacks", () => {
  const storage = getMetadataStorage();
  const typeName = (target: unknown) => storage.objectTypes.find((type) => type.target === target)?.name;
  const resolvedFields = new Set(
    storage.fieldResolvers.map(
      (resolver) => `${typeName((resolver.getObjectType ?? resolver.resolverClassMetadata?.getObjectType)?.())}.${resolver.schemaName}`,
    ),
  );
  const declaredEdges = Object.entries(edges).flatMap(([name, fields]) => fields.map((field) => `${name}.${field}`));

  const embedded = (edge: string) => {
    const [name, field] = edge.split(".");
    return objectType(name).getFields()[field].extensions.embedded !== undefined;
  };

  expect(declaredEdges.filter((edge) => !resolvedFields.has(edge) && !embedded(edge))).toEqual([]);
  expect(declaredEdges.filter(embedded).sort()).toEqual([
    "Exercise.creator",
    "Link.personal",
    "Link.student",
    "PlanTraining.training",
    "Training.creator",
    "TrainingExercise.exercise",
    "TrainingPlan.creator",
    "User.executions",
  ]);
  // One path: a relation read with its parent answers only what the parent carries, and a parent read without it is
  // our bug (no loader behind it). A field resolver on another module's type only declares such a relation's arguments.
  for (const edge of declaredEdges.filter(embedded)) {
    const [name, field] = edge.split(".");
    const resolve = objectType(name).getFields()[field].resolve!;
    expect(() => resolve({ id: 1 }, {}, { actor: { kind: "anonymous" } }, {} as never), edge).toThrow(`${edge} was not read with its parent`);
  }
});

/**
 * Fields whose GraphQL type says another kind than REST's schema, kept so because changing either side changes a
 * published document (schema.graphql, the OpenAPI document).
 */
const kindDifferences = [
  // The change feed: REST a union by entity and op (each entity's data typed, a literal entity and op per branch),
  // GraphQL one Change whose data is a JSON object.
  "Change.data: REST object, GraphQL JSONObject",
  "Change.entity: REST String, GraphQL enum",
  "Change.op: REST String, GraphQL enum",
  "ChangeFeedPage.changes: REST [union], GraphQL [object]",
  // An enum in REST's schema that GraphQL answers as a String, naming the values in the field's description.
  "CreatedWebhookEndpoint.events: REST [enum], GraphQL [String]",
  "ExerciseRecord.unit: REST enum, GraphQL String",
  "NewRecord.unit: REST enum, GraphQL String",
  "RecentRecord.unit: REST enum, GraphQL String",
  "WebhookDelivery.eventType: REST enum, GraphQL String",
  "WebhookEndpoint.events: REST [enum], GraphQL [String]",
  // REST's schema says less than GraphQL's: a number where GraphQL says Int, text where it says LocalDate.
  "Boleto.dueDate: REST String, GraphQL LocalDate",
  "TrainingProgressPoint.duration: REST Float, GraphQL Int",
  "UserMetrics.totalTime: REST Float, GraphQL Int",
  "WeeklyProgress.totalTime: REST Float, GraphQL Int",
];

/** A zod schema without its optional, nullable and default wrappers. */
const bare = (schema: z.ZodType): z.ZodType =>
  schema instanceof ZodOptional || schema instanceof ZodNullable || schema instanceof ZodDefault ? bare(schema.unwrap() as z.ZodType) : schema;

/** The GraphQL kind a REST value's schema reads as: a scalar's name, `enum`, `object` (another twin) or `[…]`. */
function restKind(schema: z.ZodType): string {
  const value = bare(schema);
  const format = "format" in value ? value.format : undefined;
  switch (value.def.type) {
    case "array":
      return `[${restKind((value as ZodArray).element as z.ZodType)}]`;
    case "number":
      return format === "safeint" ? "Int" : "Float";
    case "date":
      return "DateTimeISO";
    case "string":
      return format === "date" ? "LocalDate" : format === "datetime" ? "DateTimeISO" : "String";
    case "boolean":
      return "Boolean";
    case "literal":
      return typeof (value as ZodLiteral).value === "boolean" ? "Boolean" : "String";
    case "enum":
      return "enum";
    case "object":
      // An object of any keys (the change feed's data) is a JSON object; one of set keys, a twin compared on its own.
      return Object.keys((value as ZodObject).shape).length === 0 ? "JSONObject" : "object";
    default:
      return value.def.type;
  }
}

/** The same of a GraphQL field's type. */
function graphqlKind(type: GraphQLOutputType): string {
  const value = getNullableType(type);
  if (isListType(value)) return `[${graphqlKind(value.ofType)}]`;
  if (isEnumType(value)) return "enum";
  if (isObjectType(value)) return "object";
  return value.name;
}

/** The values of an enum field (of a list's items), on either side. */
function restEnumValues(schema: z.ZodType): string[] | undefined {
  const value = bare(schema);
  if (value instanceof ZodArray) return restEnumValues(value.element as z.ZodType);
  return value instanceof ZodEnum ? value.options.map(String).sort() : undefined;
}
function graphqlEnumValues(type: GraphQLOutputType): string[] | undefined {
  const value = getNullableType(type);
  if (isListType(value)) return graphqlEnumValues(value.ofType);
  return isEnumType(value)
    ? value
        .getValues()
        .map((enumValue) => String(enumValue.value))
        .sort()
    : undefined;
}

it("a twin's field is null in GraphQL where REST may give null or leave it out, and is of its REST kind", () => {
  const found = new Set<string>();
  for (const [name, shapes] of Object.entries(twins)) {
    for (const [fieldName, field] of Object.entries(objectType(name).getFields())) {
      const restFields = [shapes].flat().map((shape) => shape.shape[fieldName] as z.ZodType | undefined);
      const restField = restFields.find((schema) => schema !== undefined);
      if (!restField) continue;
      const restMayLack = restFields.some((schema) => schema === undefined || schema.safeParse(null).success || schema.safeParse(undefined).success);
      if (restMayLack === isNonNullType(field.type))
        found.add(`${name}.${fieldName}: ${restMayLack ? "REST may lack it, GraphQL never null" : "REST always gives it, GraphQL nullable"}`);
      const [rest, graphql] = [restKind(restField), graphqlKind(field.type)];
      if (rest !== graphql) found.add(`${name}.${fieldName}: REST ${rest}, GraphQL ${graphql}`);
      else if (String(restEnumValues(restField)) !== String(graphqlEnumValues(field.type))) found.add(`${name}.${fieldName}: enum values differ`);
    }
  }
  expect([...found].sort()).toEqual([...kindDifferences].sort());
});
