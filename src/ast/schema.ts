// The XOS AST (DESIGN §3): the zod schema is the single definition of its shape.
// Cross-references (unknown fields, ref targets, locales) are checked in validate.ts.
import { z } from 'zod';

export const FIELD_TYPES = [
  'id', 'string', 'text', 'int', 'decimal', 'bool', 'date', 'datetime', 'time',
  'email', 'phone', 'url', 'enum', 'ref',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A text shown to people or models: one string, or one per locale. */
export const LocalizedText = z.union([z.string(), z.record(z.string(), z.string())]);
export type LocalizedText = z.infer<typeof LocalizedText>;

export const FieldSchema = z.strictObject({
  type: z.enum(FIELD_TYPES),
  label: LocalizedText.optional(),
  description: LocalizedText.optional(),
  required: z.boolean().optional(),
  /** Numbers: smallest value. Strings: shortest length. */
  min: z.number().optional(),
  /** Numbers: largest value. Strings: longest length. */
  max: z.number().optional(),
  /** decimal: digits after the point that are kept. */
  scale: z.number().int().min(0).max(18).optional(),
  /** enum: the allowed values, each a GraphQL name. */
  values: z.array(z.string()).optional(),
  /** enum: labels of the values. */
  value_labels: z.record(z.string(), LocalizedText).optional(),
  /**
   * enum of the person's own table: what the column holds for each value that is no GraphQL name
   * as the database spells it (`"PG_13": "PG-13"`, written by `xos-server init`). XOS reads and
   * writes the database's spelling; a value not named here is stored as it is.
   */
  column_values: z.record(z.string(), z.string()).optional(),
  /** ref: the entity this field points at (many-to-one). */
  entity: z.string().optional(),
  /** ref: name of the one-to-many list on the other entity. */
  inverse: z.string().optional(),
  /**
   * What the agent may know of the field: `hidden` (never reaches the model: not in the schema,
   * no reply, not accepted from it) or `masked` (the model sees that a value exists, never the
   * value). The person sees and edits it on the Board either way. Absent: the agent sees it.
   */
  agent: z.enum(['hidden', 'masked']).optional(),
  /**
   * The column of the entity's `table` that holds this field, as the database names it (mixed
   * case, reserved words and non-ASCII letters as they are). Only on an entity with `table`;
   * absent: the column is named like the field (a ref: `<field>_id`).
   */
  column: z.string().min(1).optional(),
  /** The database computes or guards the value (a generated or identity column): shown, never written. */
  read_only: z.boolean().optional(),
  /**
   * id of a read-only entity over a table with a composite key: its columns, in key order. The
   * record's id is their values joined by "|" (a text key).
   */
  columns: z.array(z.string().min(1)).min(2).optional(),
  /**
   * id: what keys the entity's records — `int` (the default), `text` or `uuid` (the database's own
   * tables). ref: the key of the entity it points at, the same as that entity's id says.
   */
  key: z.enum(['int', 'text', 'uuid']).optional(),
});
export type FieldDef = z.infer<typeof FieldSchema>;

export const EntitySchema = z.strictObject({
  label: LocalizedText.optional(),
  /** What the entity holds, in words (`xos-server init` takes a table's long or multi-line comment). */
  description: LocalizedText.optional(),
  /**
   * The person's own table (or view) this entity lives in, as the database names it. XOS never
   * creates, alters or drops it, and checks a save against the values it loaded (there is no
   * version column). Absent: XOS's own table, named like the entity, created by XOS.
   */
  table: z.string().min(1).optional(),
  /** PostgreSQL: the schema of `table`; absent: the connection's search path (usually `public`). */
  schema: z.string().min(1).optional(),
  /** Why records of this entity can only be read (a view, a table without a single-column key). */
  read_only: z.string().min(1).optional(),
  /** What the database has that this entity leaves out, and why (written by `xos-server init`). */
  notes: z.array(z.string()).optional(),
  /**
   * A record's name, `{first_name} {last_name}`: fields in braces, one space between them (the name
   * is their values joined by spaces, empty ones left out). Absent: the first required string field,
   * else the first string field, else the same of text fields, else the record's id.
   */
  display: z.string().optional(),
  fields: z.record(z.string(), FieldSchema),
});
export type EntityDef = z.infer<typeof EntitySchema>;

export const NavigateSchema = z.strictObject({
  context: z.string(),
  /** target parameter -> source path (`id`, `company.id`). */
  params: z.record(z.string(), z.string()).optional(),
});
export type NavigateDef = z.infer<typeof NavigateSchema>;

/** How a field is shown beyond its type: a long text as a text area, a number as money or a percentage. */
export const WidgetSchema = z.union([
  z.strictObject({ kind: z.literal('textarea') }),
  z.strictObject({ kind: z.literal('money'), currency: z.string().regex(/^[A-Z]{3}$/) }),
  z.strictObject({ kind: z.literal('percent') }),
]);
export type WidgetDef = z.infer<typeof WidgetSchema>;

/**
 * A context's own look, declared (no script): a detail form's sections with their fields in
 * order, a list's column widths in pixels, and per field a widget. Fields left out of every
 * section follow in a last, untitled section; without a layout the Board's generic one applies.
 */
export const LayoutSchema = z.strictObject({
  sections: z.array(z.strictObject({ label: LocalizedText.optional(), fields: z.array(z.string()).min(1) })).optional(),
  columns: z.record(z.string(), z.strictObject({ width: z.number().int().min(40).max(1200) })).optional(),
  widgets: z.record(z.string(), WidgetSchema).optional(),
});
export type LayoutDef = z.infer<typeof LayoutSchema>;

export const CONTEXT_KINDS = ['list', 'detail'] as const;
export type ContextKind = (typeof CONTEXT_KINDS)[number];

export const ContextSchema = z.strictObject({
  kind: z.enum(CONTEXT_KINDS),
  entity: z.string(),
  label: LocalizedText.optional(),
  list_fields: z.array(z.string()).min(1),
  editable: z.array(z.string()).optional(),
  /** detail: the person may create records of the entity here (the form starts empty; saving asks first). */
  create: z.boolean().optional(),
  /** detail: the person may delete the shown record (asked first, version-checked). */
  delete: z.boolean().optional(),
  prompts: z.array(LocalizedText).optional(),
  /** key: `row` (a list row) or a field name -> where it leads. */
  navigate: z.record(z.string(), NavigateSchema).optional(),
  layout: LayoutSchema.optional(),
  /**
   * Why the person changes less here than the context offers: set by the server from the person's
   * role (never written by hand), shown on the Board's form.
   */
  read_only_reason: LocalizedText.optional(),
});
export type ContextDef = z.infer<typeof ContextSchema>;

export const CONTEXT_RIGHTS = ['read', 'edit', 'create', 'delete'] as const;
export type ContextRight = (typeof CONTEXT_RIGHTS)[number];
export const FIELD_RIGHTS = ['read', 'edit'] as const;
export type FieldRight = (typeof FIELD_RIGHTS)[number];

/**
 * What the people of one role may do. Contexts: the rights per context (`"*"`: every context not
 * named); a context not named (and no `"*"`) is not theirs at all. Fields (`entity.field`): `[]`
 * hidden, `["read"]` shown but never changed; a field not named keeps what its context allows.
 * Rows: per entity, only the records whose `field` holds the person's name (`"$person"`).
 */
export const RoleSchema = z.strictObject({
  label: LocalizedText.optional(),
  contexts: z.record(z.string(), z.array(z.enum(CONTEXT_RIGHTS))),
  fields: z.record(z.string(), z.array(z.enum(FIELD_RIGHTS))).optional(),
  rows: z.record(z.string(), z.strictObject({ field: z.string(), is: z.literal('$person') })).optional(),
});
export type RoleDef = z.infer<typeof RoleSchema>;

export const AstSchema = z.strictObject({
  xos: z.literal('1'),
  app: z.string().min(1),
  version: z.string().optional(),
  label: LocalizedText.optional(),
  locales: z.array(z.string()).min(1),
  prompts: z.array(LocalizedText).optional(),
  entities: z.record(z.string(), EntitySchema),
  contexts: z.record(z.string(), ContextSchema),
  /**
   * XOS's audit trail (History, Undo) in the database. On by default; over the person's own tables
   * (`table`) only when set to true: XOS then creates its one table `xos_audit` (PostgreSQL: in its
   * own schema, `xos.audit`) and nothing else.
   */
  audit: z.boolean().optional(),
  /** Who may do what (role name -> rights); absent: everyone who may use the app may do everything it offers. */
  roles: z.record(z.string(), RoleSchema).optional(),
  /** What `xos-server init` noticed about the database as a whole. */
  notes: z.array(z.string()).optional(),
  /** Demo or seed records per entity; refs given by id. */
  data: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).optional(),
});
export type Ast = z.infer<typeof AstSchema>;
