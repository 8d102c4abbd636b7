/*
 * A GraphQL object type declares the REST answer it mirrors (`class Link implements LiteralsWidened<LinkDto>`): the zod
 * DTO of src/modules/<m>/<m>.dto.ts is the one declaration of an answer's shape, so a field the DTO gains and the
 * class lacks fails the type check. These types name the ways a class deliberately differs from its DTO;
 * tests/graphql/shapes.test.ts checks the built schema's fields against the zod schemas' keys both ways.
 */

/**
 * One GraphQL type standing for two REST shapes: a whole and its list item (Exercise, Training, TrainingExecution), or
 * two views of one thing (Invite as sent and as received; PersonalRecord by exercise and in the metrics). The fields
 * both shapes have stay as they are; a field only one has may be absent, which GraphQL answers as null.
 */
export type MergedShapes<A, B> = Pick<A, keyof A & keyof B> & Partial<Omit<A, keyof B>> & Partial<Omit<B, keyof A>>;

/**
 * A DTO whose enum and literal values (a status, `unit: "kg"`, `success: true`) are widened to string and boolean, at
 * any depth: the classes type such fields as the plain primitive, and type-graphql checks an enum field's values
 * against its GraphQL enum when answering. A class whose fields name the DTO's types (`status!: LinkDto["status"]`,
 * as User does) implements the DTO itself.
 */
export type LiteralsWidened<T> = T extends string
  ? string
  : T extends boolean
    ? boolean
    : T extends Date
      ? Date
      : T extends readonly (infer Item)[]
        ? LiteralsWidened<Item>[]
        : T extends object
          ? { [K in keyof T]: LiteralsWidened<T[K]> }
          : T;

/**
 * The shape of a DTO's nested object (one item, when the field is a list; the object, when it may be null), for the
 * class answering it (`class AdherenceWeek implements NestedShape<AdherenceDto, "weeks">`): a class implements a
 * named type only.
 */
export type NestedShape<Dto, K extends keyof Dto> = NonNullable<Dto[K]> extends readonly (infer Item)[] ? Item : NonNullable<Dto[K]>;
