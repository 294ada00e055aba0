// What a use case reports (show, propose, save, create, delete, undo, send): facts and problems
// with ids, versions, fields and values, never sentences. The MCP tools word them for the
// agent (src/mcp/wording.ts), the Board for the person in its language (src/board/outcomeText.ts).
// `ok` says whether it was done. No MCP, no VS Code.
import type { FieldValueError, ValueProblem } from '../ast/values.ts';
import type { QueryRefusal } from '../graphql/queryRules.ts';

export type { QueryRefusal } from '../graphql/queryRules.ts';

/** A field's value as stored (or about to be): the wording masks or leaves out what the agent may not read. */
export interface FieldValue {
  readonly field: string;
  readonly value: unknown;
}

/** A form value that cannot be saved, as the value check found it. */
export interface FieldProblem {
  readonly entity: string;
  readonly field: string;
  /** The check's own message (`person.age: …`), for the agent where the field is visible to it. */
  readonly message: string;
  readonly problem: ValueProblem;
}

/** Why a record of given JSON does not fit the context it is to be shown in. */
export type RecordProblem =
  | { readonly kind: 'not_object' }
  /** Fields that are not among the context's list_fields the agent may send. */
  | { readonly kind: 'unknown_fields'; readonly fields: readonly string[] }
  /** An inverse list given as something other than a list. */
  | { readonly kind: 'not_a_list'; readonly field: string }
  /** A value that does not fit its field, as the value check found it. */
  | { readonly kind: 'value'; readonly value: FieldProblem };

/** A GraphQL error as the server sent it (`extensions.field` names a column). */
export interface ServerError {
  readonly message: string;
  readonly extensions?: Record<string, unknown>;
}

/** A field both the person's form and someone else's save changed. */
export interface ConflictField {
  readonly field: string;
  readonly loaded: unknown;
  readonly stored: unknown;
  /** The pending value; absent when the form left the field unchanged. */
  readonly pending?: { readonly value: unknown };
}

/** What the person was asked to confirm. */
export type Action = 'save' | 'create' | 'delete' | 'send';

/** Why a confirmed action did not happen before anything was written or sent. */
export type NotAsked = { readonly kind: 'not_asked'; readonly ok: false; readonly action: Action; readonly reason: string };
export type Declined = { readonly kind: 'declined'; readonly ok: false; readonly action: Action; readonly answer: 'discard' | 'cancel' | 'timeout' };
export type ChangedWhileAsked = { readonly kind: 'changed_while_asked'; readonly ok: false; readonly action: Action };

export type Saved = {
  readonly kind: 'saved'; readonly ok: true; readonly entity: string; readonly id: string;
  readonly versionFrom: number; readonly versionTo: number; readonly stored: readonly FieldValue[];
  /** The record's name as stored now (its entity's display fields, display.ts), when it has one. */
  readonly name?: string;
  /** The save's answer was lost, and reading the record back showed exactly this change stored. */
  readonly lostAnswer?: string;
};

export type Created = { readonly kind: 'created'; readonly ok: true; readonly entity: string; readonly id: string; readonly version: number; readonly stored: readonly FieldValue[] };

/** A reviewed batch stored in one transaction: how many records and cells, which fields, and its audit batch. */
export type BatchSaved = {
  readonly kind: 'batch_saved'; readonly ok: true; readonly entity: string; readonly records: number; readonly cells: number;
  readonly fields: readonly string[]; readonly batch?: string;
  /** The answer was lost, and reading the records back showed exactly this change stored. */
  readonly lostAnswer?: string;
};

/** Outcomes of saving a reviewed batch besides those of a single save. */
export type BatchSaveOutcome =
  | BatchSaved
  /** Records changed by someone else meanwhile (or gone): nothing was written; the review marks them. */
  | { readonly kind: 'batch_conflict'; readonly ok: false; readonly entity: string; readonly records: number; readonly conflicts: number; readonly gone: number; readonly ids: readonly string[] }
  /** The person is already being asked to save this review. */
  | { readonly kind: 'review_asking'; readonly ok: false; readonly entity: string }
  /** Conflicting rows still wait for the person's decision. */
  | { readonly kind: 'review_conflicts'; readonly ok: false; readonly entity: string; readonly count: number }
  /** The answer to the batch write was lost and reading back could not tell whether it was stored. */
  | { readonly kind: 'batch_answer_lost'; readonly ok: false; readonly entity: string; readonly records: number; readonly reason: string; readonly found: 'unchanged' | 'unknown' };

/** Outcomes of saving the form (a new record's form creates it), or the reviewed batch. */
export type SaveOutcome =
  | BatchSaveOutcome
  | Saved
  | Created
  | { readonly kind: 'nothing_to_save'; readonly ok: false; readonly why: 'no_record' | 'unchanged' }
  | { readonly kind: 'nothing_to_create'; readonly ok: false }
  | { readonly kind: 'open_conflicts'; readonly ok: false; readonly entity: string; readonly fields: readonly string[] }
  | { readonly kind: 'invalid_values'; readonly ok: false; readonly action: 'save' | 'create'; readonly problems: readonly FieldProblem[] }
  | { readonly kind: 'empty_form'; readonly ok: false }
  | NotAsked
  | Declined
  | ChangedWhileAsked
  | { readonly kind: 'unavailable'; readonly ok: false; readonly reason: string }
  | { readonly kind: 'server_refused'; readonly ok: false; readonly action: 'save' | 'create' | 'delete'; readonly entity: string; readonly error: ServerError }
  | {
    readonly kind: 'conflict'; readonly ok: false; readonly entity: string; readonly id: string;
    readonly versionFrom: number; readonly versionTo: number; readonly fields: readonly ConflictField[];
  }
  | { readonly kind: 'deleted_meanwhile'; readonly ok: false; readonly entity: string; readonly id: string }
  | {
    readonly kind: 'answer_lost'; readonly ok: false; readonly entity: string; readonly id: string; readonly reason: string;
    /** What reading the record back showed: nothing (unreachable), the loaded version, another one, or no record. */
    readonly found: 'unreadable' | 'unchanged' | 'changed' | 'deleted'; readonly versionFrom: number; readonly versionNow?: number;
  };

/** Outcomes of undoing a save: its own refusals, else a save's. */
export type UndoOutcome =
  | SaveOutcome
  | { readonly kind: 'not_a_save'; readonly ok: false; readonly entry: number; readonly action: string }
  /** The batch's entries are not (or no longer) in the trail. */
  | { readonly kind: 'batch_gone'; readonly ok: false; readonly batch: string }
  | { readonly kind: 'unsaved_form'; readonly ok: false }
  | { readonly kind: 'not_undoable'; readonly ok: false; readonly entity: string; readonly fields: readonly string[] }
  | { readonly kind: 'gone'; readonly ok: false; readonly entity: string; readonly id: string };

/** Outcomes of opening an empty form for a new record. */
export type NewRecordOutcome =
  | { readonly kind: 'new_form'; readonly ok: true; readonly context: string }
  | { readonly kind: 'cannot_create'; readonly ok: false; readonly context: string };

/** Outcomes of deleting the shown record. */
export type DeleteOutcome =
  | { readonly kind: 'deleted'; readonly ok: true; readonly entity: string; readonly id: string }
  | { readonly kind: 'nothing_to_delete'; readonly ok: false }
  | { readonly kind: 'cannot_delete'; readonly ok: false; readonly context: string }
  | { readonly kind: 'cannot_ask'; readonly ok: false }
  | NotAsked
  | Declined
  | ChangedWhileAsked
  | { readonly kind: 'changed_meanwhile'; readonly ok: false; readonly entity: string; readonly id: string }
  | { readonly kind: 'server_refused'; readonly ok: false; readonly action: 'delete'; readonly entity: string; readonly error: ServerError };

/** Outcomes of sending the Board's mail draft (and of its undo window ending). */
export type MailOutcome =
  | { readonly kind: 'sent'; readonly ok: true; readonly to: string; readonly messageId: string }
  | { readonly kind: 'already_sent'; readonly ok: true; readonly to: string; readonly at: string; readonly messageId?: string; readonly uncertain: boolean }
  | { readonly kind: 'scheduled'; readonly ok: true; readonly to: string; readonly sendAt: string; readonly seconds: number }
  | { readonly kind: 'already_scheduled'; readonly ok: true; readonly to: string; readonly sendAt: string }
  | { readonly kind: 'no_draft'; readonly ok: false }
  | { readonly kind: 'sending'; readonly ok: false }
  | NotAsked
  | Declined
  | ChangedWhileAsked
  | { readonly kind: 'replaced'; readonly ok: false; readonly to: string }
  | { readonly kind: 'mail_refused'; readonly ok: false; readonly reason: string }
  | { readonly kind: 'transfer_broke'; readonly ok: false; readonly reason: string };

type UnknownContext = { readonly kind: 'unknown_context'; readonly ok: false; readonly context: string; readonly known: readonly string[] };
type InvalidJson = { readonly kind: 'invalid_json'; readonly ok: false; readonly what: 'json' | 'changes'; readonly reason: string };

/** Outcomes of showing data on the Board: a query, given JSON, a record, a row's or a link's record, a step back or forward. */
export type ShowOutcome =
  | { readonly kind: 'shown'; readonly ok: true; readonly context: string; readonly count: number }
  /** What the query rules found wrong with the agent's query. */
  | { readonly kind: 'query_invalid'; readonly ok: false; readonly refusal: QueryRefusal }
  | { readonly kind: 'query_refused'; readonly ok: false; readonly message: string }
  | { readonly kind: 'no_match'; readonly ok: false; readonly context: string }
  | UnknownContext
  | InvalidJson
  | { readonly kind: 'one_record_needed'; readonly ok: false; readonly context: string; readonly count: number }
  | {
    readonly kind: 'records_invalid'; readonly ok: false; readonly context: string;
    /** What does not fit, per record (by its index in the JSON). */
    readonly problems: ReadonlyArray<{ readonly index: number; readonly problem: RecordProblem }>; readonly allowed: readonly string[];
  }
  | { readonly kind: 'load_failed'; readonly ok: false; readonly message: string }
  | { readonly kind: 'not_found'; readonly ok: false; readonly context: string; readonly id: string }
  | { readonly kind: 'no_list'; readonly ok: false }
  | { readonly kind: 'no_row_link'; readonly ok: false; readonly context: string }
  | { readonly kind: 'no_link'; readonly ok: false; readonly context: string; readonly field: string; readonly items: boolean }
  | { readonly kind: 'no_id'; readonly ok: false; readonly key: string; readonly idPath: string }
  | { readonly kind: 'no_record'; readonly ok: false }
  | { readonly kind: 'no_field'; readonly ok: false; readonly context: string; readonly field: string }
  | { readonly kind: 'empty_link'; readonly ok: false; readonly context: string; readonly field: string }
  | { readonly kind: 'not_an_item'; readonly ok: false; readonly context: string; readonly field: string; readonly item: string }
  | { readonly kind: 'no_step'; readonly ok: false; readonly direction: 'back' | 'forward' }
  | { readonly kind: 'no_context'; readonly ok: false; readonly context: string }
  | { readonly kind: 'not_a_list'; readonly ok: false; readonly context: string };

/** Outcomes of the agent's proposed changes (a preview in the form; nothing saved). */
export type ProposeOutcome =
  | {
    readonly kind: 'previewed'; readonly ok: true; readonly entity: string; readonly id: string;
    readonly pending: ReadonlyArray<{ readonly field: string; readonly from: unknown; readonly to: unknown }>;
  }
  | UnknownContext
  | { readonly kind: 'not_loaded'; readonly ok: false; readonly context: string; readonly detail: boolean; readonly shown?: string }
  | { readonly kind: 'rendered_only'; readonly ok: false; readonly context: string }
  | InvalidJson
  | { readonly kind: 'changes_not_object'; readonly ok: false }
  | { readonly kind: 'not_editable'; readonly ok: false; readonly context: string; readonly fields: readonly string[]; readonly editable: readonly string[] }
  | { readonly kind: 'invalid_proposal'; readonly ok: false; readonly problems: readonly FieldProblem[] }
  | BatchProposeOutcome;

/** Outcomes of a proposal for many records of a list context (batch.ts): counts, never the rows. */
export type BatchProposeOutcome =
  | {
    readonly kind: 'batch_previewed'; readonly ok: true; readonly context: string; readonly entity: string; readonly fields: readonly string[];
    /** Rows shown for review; of them valid and invalid; rows matched but left as they are; ids given that match no record. */
    readonly rows: number; readonly valid: number; readonly invalid: number; readonly unchanged: number; readonly missing: number;
    readonly missingIds: readonly string[];
    /** A few invalid rows' first problem, as examples. */
    readonly problems: ReadonlyArray<{ readonly id: string; readonly problem: FieldProblem }>;
  }
  | { readonly kind: 'batch_invalid'; readonly ok: false; readonly context: string; readonly reason: string; readonly editable: readonly string[] }
  | { readonly kind: 'too_many_rows'; readonly ok: false; readonly context: string; readonly matched: number; readonly max: number }
  | { readonly kind: 'batch_unchanged'; readonly ok: false; readonly context: string; readonly matched: number; readonly missing: number; readonly missingIds: readonly string[] }
  | { readonly kind: 'query_invalid'; readonly ok: false; readonly refusal: QueryRefusal }
  | { readonly kind: 'query_refused'; readonly ok: false; readonly message: string }
  | { readonly kind: 'board_unsaved'; readonly ok: false };

/** Every outcome the Board may have to put into words for the person. */
export type BoardOutcome = UndoOutcome | NewRecordOutcome | DeleteOutcome | MailOutcome | ShowOutcome;

/** Every outcome of a use case. */
export type AnyOutcome = BoardOutcome | ProposeOutcome;

/** A value check's failure as data. */
export function fieldProblem(error: FieldValueError): FieldProblem {
  return { entity: error.entity, field: error.field, message: error.message, problem: error.problem };
}
