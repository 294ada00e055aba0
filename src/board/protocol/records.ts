// The record on the form and the list grid's edits: typing, Save, the form's actions, its
// History and undo, delete, the CSV export (src/board/recordActions.ts).
import type { ListQuery } from '../../core/domain.ts';
import type { RecordHistoryView } from '../recordHistory.ts';
import type { GridEditsBlock } from '../viewTypes.ts';
import { isCount, isEmptyParams, isListQuery, isObject, isText, notification, request } from './messages.ts';

export type FormValues = Record<string, unknown>;

/** The person changed a form field (already converted to the field's value form). */
export const edit = notification<{ readonly field: string; readonly value: unknown }>('board/edit',
  (v): v is { field: string; value: unknown } => isObject(v) && isText(v.field, 200) && 'value' in v);

/** The person clicked Save on the form. */
export const save = notification<Record<string, never>>('board/save', isEmptyParams);

export type FormAction = 'accept' | 'revert' | 'keepMine' | 'keepTheirs' | 'acceptAll' | 'revertAll' | 'discard';

const FORM_ACTIONS: readonly string[] = ['accept', 'revert', 'keepMine', 'keepTheirs', 'acceptAll', 'revertAll', 'discard'];

const FIELD_ACTIONS: readonly string[] = ['accept', 'revert', 'keepMine', 'keepTheirs'];

/** The person accepted or reverted a field (`field`), settled a conflicting one (mine or theirs), took or dropped all proposals, or discarded every unsaved change. */
export const formAction = notification<{ readonly action: FormAction; readonly field?: string }>('board/formAction',
  (v): v is { action: FormAction; field?: string } => isObject(v) && typeof v.action === 'string' && FORM_ACTIONS.includes(v.action)
    && (v.field === undefined || isText(v.field, 200)) && (FIELD_ACTIONS.includes(v.action) === (v.field !== undefined)));

/** The form as the person's typing left it, for the record `key`: what is wrong (field -> text), which fields they changed, whether anything is unsaved. */
export interface FormState {
  readonly key: string;
  readonly problems: Readonly<Record<string, string>>;
  readonly edited: readonly string[];
  readonly dirty: boolean;
}

export const formState = notification<FormState>('board/formState');

/** The person's current form values (the fields they edited), flushed from the webview. */
export const formData = request<Record<string, never>, FormValues>('board/formData');

/** The audit trail of the record the form shows (`key` as in the detail block); newest first. */
export const recordHistory = request<{ readonly key: string }, RecordHistoryView>('board/recordHistory',
  (v): v is { key: string } => isObject(v) && isText(v.key, 400));

/** The person asked to undo the save recorded as audit entry `entry` of the shown record. */
export const undoSave = notification<{ readonly entry: number }>('board/undoSave',
  (v): v is { entry: number } => isObject(v) && isCount(v.entry));

/** The person asked to delete the shown record (the host asks them to confirm). */
export const deleteRecord = notification<Record<string, never>>('board/deleteRecord', isEmptyParams);

/** The person asked for the shown list as a CSV file (with their sort and filter). */
export const exportCsv = notification<{ readonly listId: number; readonly query: ListQuery }>('board/exportCsv',
  (v): v is { listId: number; query: ListQuery } => isObject(v) && isCount(v.listId) && isListQuery(v.query));

/** The person's value for a cell of the list grid (`key`: the row's record id), in the field's value form. */
export const gridEdit = notification<{ readonly listId: number; readonly key: string; readonly field: string; readonly value: unknown }>('board/gridEdit',
  (v): v is { listId: number; key: string; field: string; value: unknown } => isObject(v) && isCount(v.listId) && isText(v.key, 200) && isText(v.field, 200) && 'value' in v);

export type GridEditsAction = 'save' | 'discard';

/** Save (one question, one transaction) or discard the list grid's edits. */
export const gridEditsAction = notification<{ readonly listId: number; readonly action: GridEditsAction }>('board/gridEditsAction',
  (v): v is { listId: number; action: GridEditsAction } => isObject(v) && isCount(v.listId) && (v.action === 'save' || v.action === 'discard'));

/** The list grid's edits as the host holds them (after each edit, and null when there are none). */
export const gridEdits = notification<{ readonly gridEdits: GridEditsBlock | null }>('board/gridEdits');
