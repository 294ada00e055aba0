// The Board's parts as the webview receives them (built by view.ts in the host):
// plain JSON types only, so the webview can import them without the host's code.
// Browser-safe: no Node imports.
import type { WidgetDef } from '../ast/schema.ts';
import type { BoardFieldType, InputKind } from '../ast/fieldKinds.ts';
import type { SelectOption } from '../ast/appModel.ts';
import type { ListQuery } from '../core/domain.ts';
import type { ReviewTally } from '../core/review.ts';
import type { BoardTexts } from './texts.ts';

export interface Column {
  readonly field: string;
  readonly label: string;
  readonly type: BoardFieldType;
  /** Numbers align right. */
  readonly numeric: boolean;
  /** enum value -> label in the locale */
  readonly enumLabels?: Readonly<Record<string, string>>;
  /** A ref column: the fields that name the related record (display.ts). */
  readonly refFields?: readonly string[];
  /** Whether a click on the header sorts (through the backend). */
  readonly sortable: boolean;
  /** A ref whose value is a link to the related record's detail. */
  readonly opens?: boolean;
  /** From the context's layout: the width in pixels, and money or percent display. */
  readonly width?: number;
  readonly widget?: WidgetDef;
}

/** One list row: the record's key (its id) and its raw values in column order. */
export interface GridRow {
  readonly key: string;
  readonly values: readonly unknown[];
}

export interface ListBlock {
  /** Which list this is; a new query or render gets a new id. */
  readonly listId: number;
  readonly context: string;
  readonly label: string;
  readonly columns: readonly Column[];
  /** Rows matching the agent's query (before the person's filter). */
  readonly total: number;
  /** The first rows, so they paint with the list. */
  readonly rows: readonly GridRow[];
  /** A row opens a detail context (`navigate.row`). */
  readonly navigable: boolean;
  /** The person's sort and filter, restored when the webview comes back. */
  readonly query: ListQuery;
  /** The person can create a record of the list's entity (a detail context allows "create"). */
  readonly canCreate: boolean;
  /** The agent's `where` in the person's words when it narrowed the list (src/board/whereText.ts); Show all opens the context whole. */
  readonly narrowed?: string;
  /** The columns the person may edit in the grid (field -> its editor), as the form of its rows allows (src/core/gridEdits.ts). */
  readonly editors?: Readonly<Record<string, ReviewColumn>>;
}

/** The person's unsaved edits of the list grid's cells: the page shows each value instead of the stored one. */
export interface GridEditsBlock {
  readonly listId: number;
  readonly cells: ReadonlyArray<{ readonly key: string; readonly field: string; readonly value: unknown; readonly problem?: string }>;
  /** Whether Save can write them (at least one change, none invalid). */
  readonly canSave: boolean;
}

export interface FormField {
  readonly field: string;
  readonly label: string;
  readonly type: BoardFieldType;
  readonly input: InputKind;
  readonly editable: boolean;
  readonly required: boolean;
  /** The value the input shows: a string, or a boolean for checkboxes. */
  readonly value: string | boolean;
  /** Shown next to a read-only value or a ref id (e.g. the company's name). */
  readonly display: string;
  readonly options?: readonly SelectOption[];
  /** A number's bounds from the AST (the input's min and max; the backend's rule says the same as the person types). */
  readonly min?: number;
  readonly max?: number;
  /** The agent's proposal: the stored value struck through, the new one shown. */
  readonly pending?: { readonly from: string; readonly to: string };
  /** A ref whose stored related record opens on a click (its name is a link). */
  readonly opens?: boolean;
  /** An inverse list's records (a company's employees), each a link when `opens`. */
  readonly items?: readonly { readonly key: string; readonly label: string }[];
  /** Why the value shown cannot be saved (the AST's rules, checked like the backend does), in the locale. */
  readonly problem?: string;
  /** The person changed this field (their edit, or a proposal they accepted) and it differs from the stored value. */
  readonly edited?: boolean;
  /** The AST keeps this field from the agent: it never sees it (`hidden`) or sees only •••. */
  readonly keptFromAgent?: 'hidden' | 'masked';
  /** Someone else stored another value meanwhile: the value as loaded, as stored now (theirs) and the pending one (mine). */
  readonly conflict?: { readonly base: string; readonly theirs: string; readonly mine: string };
}

export interface DetailBlock {
  readonly context: string;
  /** Which record this is (`person_detail:12`): edits of another record are not carried over. */
  readonly key: string;
  readonly label: string;
  readonly summary: string;
  /** The stored row's version the form was read at: not shown (row state), it tells History to read again. */
  readonly version?: number;
  readonly fields: readonly FormField[];
  readonly canSave: boolean;
  /** Something on the form is not saved yet (the person's edits or the agent's proposals). */
  readonly dirty: boolean;
  /** How many fields carry a proposal of the agent. */
  readonly proposals: number;
  /** How many fields wait for the person's choice after a save met a newer version. */
  readonly conflicts: number;
  /** A record being created (Save inserts it). */
  readonly isNew: boolean;
  /** The AST lets the person delete the shown record here. */
  readonly canDelete: boolean;
  /** Why the record can only be read, said to the person ("Read only: a view"). */
  readonly readOnly?: string;
  /** Someone else deleted the record meanwhile: the form says so and Save is not offered. */
  readonly deleted?: boolean;
  /** The form's sections in order (the context's layout, or one untitled section). */
  readonly sections: readonly { readonly label?: string; readonly fields: readonly string[] }[];
}

export interface MailBlock {
  /** The sender as configured; null when mail is not set up (Send is then disabled and says why). */
  readonly from: string | null;
  readonly to: string;
  /** What is wrong with the recipient, if anything (Send waits). */
  readonly problem?: string;
  readonly subject: string;
  readonly body: string;
  /** A send is being confirmed or transferred: the actions wait. */
  readonly sending: boolean;
  /** The person confirmed Send: it goes out then (ISO, and as the person reads it) unless they click Undo. */
  readonly sendAt?: string;
  readonly sendAtText?: string;
}

/** Someone else on a record the Board shows: their name, and whether they hold unsaved changes. */
export interface OtherPerson {
  readonly person: string;
  readonly editing: boolean;
}

/** The others' presence as the page shows it: on the shown record, and on the shown list's rows (editing only). */
export interface PresenceView {
  readonly detail: readonly OtherPerson[];
  readonly rows: readonly { readonly key: string; readonly people: readonly string[] }[];
}

/** The Board's own words as the webview gets them (no functions over postMessage). */
export type WebviewTexts = Omit<BoardTexts, 'records' | 'saving' | 'openFailed' | 'exported' | 'problem' | 'mailGoesOut' | 'readOnly' | 'reviewUndoOf'>;


// ---- the review of many proposed changes (one batch, confirmed once) ------------------------

/** Which rows the review grid shows: the valid changed ones, the invalid ones, those someone else changed meanwhile, or all. */
export type ReviewFilter = 'changed' | 'invalid' | 'conflicts' | 'all';
export const REVIEW_FILTERS: readonly ReviewFilter[] = ['changed', 'invalid', 'conflicts', 'all'];

/** A field the review changes: a column with what its in-place editor needs. */
export interface ReviewColumn extends Column {
  readonly input: InputKind;
  readonly required: boolean;
  readonly options?: readonly SelectOption[];
  readonly min?: number;
  readonly max?: number;
}

/** One proposed cell: stored value -> proposed (or the person's own) value, raw like GridRow values. */
export interface ReviewCell {
  readonly from: unknown;
  readonly to: unknown;
  /** Whether this cell is written when the person saves (they can reject it, or accept it again). */
  readonly accepted: boolean;
  /** The person typed this value themselves (it replaced the agent's). */
  readonly edited?: boolean;
  /** Why the value cannot be saved (the AST's rules, in the Board's locale); the row is then excluded. */
  readonly problem?: string;
}

export interface ReviewRow {
  /** The record's id. */
  readonly key: string;
  /** The identifying columns' values (ReviewBlock.columns), raw. */
  readonly values: readonly unknown[];
  /** One per changed field (ReviewBlock.changed), null where this row keeps the field as it is. */
  readonly cells: readonly (ReviewCell | null)[];
  /** Why the row cannot be written (a cell's problem, or it is gone): marked and excluded. */
  readonly problem?: string;
  /** Someone else changed the record since it was read: `from` is what is stored now; the person accepts or rejects it again. */
  readonly conflict?: boolean;
}

/** How many rows and cells the review holds, as the host counts them. */
export type ReviewCounts = ReviewTally;

/** A review of many proposed changes on a list context: the grid pages through its rows with `reviewRows`. */
export interface ReviewBlock {
  /** Which review this is; a new proposal gets a new id. */
  readonly reviewId: number;
  /** Bumped whenever rows enter or leave a filter (accept all, conflicts, an edit that fixes a row): cached rows are dropped. */
  readonly revision: number;
  readonly context: string;
  readonly label: string;
  /** The columns that tell the rows apart (id and the list's name fields). */
  readonly columns: readonly Column[];
  /** The fields the proposal changes, in order. */
  readonly changed: readonly ReviewColumn[];
  readonly counts: ReviewCounts;
  readonly filter: ReviewFilter;
  /** Rows in the filter. */
  readonly total: number;
  /** The filter's first rows, so they paint with the block. */
  readonly rows: readonly ReviewRow[];
  /** An undo of an earlier change of many records (its audit batch), in the Board's words. */
  readonly undoOf?: string;
  /** Whether Save can run now (accepted rows, no open conflicts, no question open). */
  readonly canSave: boolean;
}
