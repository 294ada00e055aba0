// The Board's own texts (the AST brings the labels of contexts and fields). English is
// written here; other languages come from the extension's l10n bundles (l10n/bundle.l10n.<lang>.json,
// the same files vscode.l10n reads for the host's messages). The webview cannot use vscode.l10n,
// and the Board follows the app's locale rather than VS Code's, so the host picks the bundle by
// the Board's locale and sends the texts.
import type { ValueProblem } from '../ast/values.ts';
import { fieldTypeRows } from '../ast/fieldTypes.ts';
import german from '../../l10n/bundle.l10n.de.json' with { type: 'json' };

export interface BoardTexts {
  readonly title: string;
  readonly empty: string;
  /** The start page's list of contexts the person can open (its accessible name). */
  readonly openContexts: string;
  /** Back and Forward through the lists and records shown, and the breadcrumb's accessible name. */
  readonly back: string;
  readonly forward: string;
  readonly breadcrumb: string;
  /** The breadcrumb's root (the app's name): where it leads. */
  readonly homeHint: string;
  /** The start page shown while the Board holds a list or record the person left for it. */
  readonly homeLead: string;
  /** The Board's language switch (its accessible name). */
  readonly language: string;
  /** The connection line: `{ms}` is replaced; `remote` names an XOS server in front of the database. */
  readonly connected: string;
  readonly unreachable: string;
  readonly remote: string;
  readonly production: string;
  readonly proposed: string;
  readonly proposedHint: string;
  readonly save: string;
  readonly mail: string;
  readonly mailTo: string;
  readonly mailSubject: string;
  readonly mailBody: string;
  /** The mail draft's sender, its two actions, and what the person is told around them. */
  readonly mailFrom: string;
  readonly mailSend: string;
  readonly mailDiscard: string;
  readonly mailSending: string;
  readonly mailDiscarded: string;
  /** A confirmed mail waiting out its undo window: when it goes out, and its Undo. */
  readonly mailGoesOut: (time: string) => string;
  readonly mailUndo: string;
  readonly mailUndone: string;
  readonly mailNotSetUp: string;
  readonly mailToInvalid: string;
  readonly records: (count: number) => string;
  readonly openRow: string;
  readonly none: string;
  readonly yes: string;
  readonly no: string;
  readonly readOnly: (reason: string) => string;
  /** Grid: the quick filter's accessible name and placeholder. */
  readonly filter: string;
  readonly filterPlaceholder: string;
  readonly exportCsv: string;
  readonly loading: string;
  readonly noRows: string;
  readonly noMatches: string;
  /** A list the agent narrowed (`{where}` is its condition): the person's filter found nothing within it; Show all widens it. */
  readonly noMatchesNarrowed: string;
  readonly narrowedHint: string;
  readonly showAll: string;
  /** `{error}` is replaced by the reason. */
  readonly rowsFailed: string;
  /** Row counts; `{count}` and `{total}` are replaced by formatted numbers. */
  readonly countOne: string;
  readonly countMany: string;
  readonly countFiltered: string;
  readonly resizeColumn: string;
  readonly sortHint: string;
  readonly copyHint: string;
  /** Why a form value cannot be saved, shown under the field as the person types. */
  readonly problem: (problem: ValueProblem) => string;
  /** The person's own change of a field, and what they can do with the agent's proposals and their edits. */
  readonly edited: string;
  readonly hiddenFromAgent: string;
  /** A record's history (the audit trail): who changed what, and Undo of a save. */
  readonly history: string;
  readonly historyEmpty: string;
  readonly historyOff: string;
  readonly historyLoading: string;
  readonly historyFailed: string;
  readonly byAgent: string;
  readonly byBoard: string;
  readonly byApi: string;
  readonly created: string;
  readonly changed: string;
  readonly deleted: string;
  readonly undo: string;
  readonly undoHint: string;
  readonly maskedForAgent: string;
  readonly accept: string;
  readonly revert: string;
  readonly acceptAll: string;
  readonly revertAll: string;
  readonly discard: string;
  readonly unsaved: string;
  /** A conflict after a save met a newer version: the three values, the two choices, and why Save waits. */
  readonly conflictTitle: string;
  readonly conflictBase: string;
  readonly conflictTheirs: string;
  readonly conflictMine: string;
  readonly keepMine: string;
  readonly keepTheirs: string;
  readonly settleConflicts: string;
  /** Create and delete records (where the AST allows it). */
  readonly newRecord: string;
  readonly create: string;
  readonly delete: string;
  /** Save is disabled while a field has a problem; this says why. */
  readonly fixProblems: string;
  /** Under a question on the page: how many more questions wait for their turn (`{count}` is replaced). */
  readonly questionWaitingOne: string;
  readonly questionsWaiting: string;
  /**
   * The review of many proposed changes (one grid, saved once): counts (`{accepted}`, `{rows}`, `{count}` are
   * replaced by formatted numbers), the filters, the actions, and each cell's accessible name
   * (`{field}`, `{from}`, `{to}` are replaced).
   */
  readonly reviewCount: string;
  readonly reviewCountOne: string;
  readonly reviewCountInvalid: string;
  readonly reviewCountUnchanged: string;
  readonly reviewCountConflicts: string;
  readonly reviewFilters: string;
  readonly reviewFilterChanged: string;
  readonly reviewFilterInvalid: string;
  readonly reviewFilterConflicts: string;
  readonly reviewFilterAll: string;
  readonly reviewAcceptAll: string;
  readonly reviewRejectAll: string;
  readonly reviewDiscard: string;
  readonly reviewNothingToSave: string;
  readonly reviewSettleConflicts: string;
  readonly reviewApplyColumn: string;
  readonly reviewStatusColumn: string;
  /** The row's toggle (`{row}` is the row's name) and a cell's (`{field}`). */
  readonly reviewAcceptRow: string;
  readonly reviewAcceptCell: string;
  readonly reviewRejectCell: string;
  readonly reviewCellAccepted: string;
  readonly reviewCellRejected: string;
  readonly reviewCellKept: string;
  readonly reviewCellEdited: string;
  /** Why a row is left out (`{problem}`), or that someone else changed it meanwhile. */
  readonly reviewRowInvalid: string;
  readonly reviewRowConflict: string;
  readonly reviewNoRows: string;
  readonly reviewHint: string;
  /** The in-place editor's accessible name (`{field}`), and what the page itself finds wrong with a typed value (`{0}`: the limit). */
  readonly reviewEditLabel: string;
  /** The list grid's edits: their count (`{count}`), Save and Discard of them, and an edited cell's name (`{field}`, `{value}`). */
  readonly gridChangesOne: string;
  readonly gridChangesMany: string;
  readonly gridSave: string;
  readonly gridDiscard: string;
  readonly gridCellEdited: string;
  readonly gridHint: string;
  readonly reviewRequired: string;
  /** Per field type, what the Board says of a value that does not fit it (fieldTypes.ts's `problem`). */
  readonly typeProblems: Readonly<Record<string, string>>;
  readonly reviewMin: string;
  readonly reviewMax: string;
  readonly reviewNotValid: string;
  /** Host side: the review that undoes an earlier change of many records. */
  readonly reviewUndoOf: (records: number) => string;
  /** Others on the shown record (a status with this accessible name), each editing (`{name}`) or with it open; a list row's marker. */
  readonly presenceLabel: string;
  readonly personEditing: string;
  readonly personViewing: string;
  readonly rowEditing: string;
  /** The shown record was deleted by someone else meanwhile. */
  readonly deletedMeanwhile: string;
  /**
   * The writes the agent asked for that wait for the person's decision: the region's name, the two
   * decisions and their accessible names (`{question}` is replaced), when each was asked (`{time}`)
   * and when it expires (`{minutes}`), and the line shown while a decision is carried out.
   */
  readonly approvalsTitle: string;
  readonly approve: string;
  readonly decline: string;
  readonly approveLabel: string;
  readonly declineLabel: string;
  readonly approvalAskedAt: string;
  readonly approvalExpiresIn: string;
  readonly approvalExpiresSoon: string;
  readonly approvalExpired: string;
  readonly approvalDeciding: string;
  /** Host-side status lines. */
  readonly saving: string;
  readonly openFailed: (what: string, reason: string) => string;
  readonly exported: (count: number, file: string) => string;
}

/** Translates an English text (placeholders `{0}`, `{1}` filled from `args`). */
export type Translate = (english: string, ...args: ReadonlyArray<string | number>) => string;

/** Every Board text through `t`: the one list of English texts. */
export function textsThrough(t: Translate): BoardTexts {
  return {
    title: t('XOS Board'),
    empty: t('Nothing is shown yet. Open a list below, or ask the agent in the chat.'),
    openContexts: t('Open a list'),
    back: t('Back'),
    forward: t('Forward'),
    breadcrumb: t('Breadcrumb'),
    homeHint: t('Start page: the app\'s lists'),
    homeLead: t('Open a list. What you were working on stays until you open one; Back or Forward returns to it.'),
    language: t('Language of the Board'),
    connected: t('connected, {ms} ms'),
    unreachable: t('not reachable'),
    remote: t('XOS server'),
    production: t('Production data: every save and send is asked for in a dialog.'),
    proposed: t('Proposed by the agent'),
    proposedHint: t('Not saved yet: the agent proposed this change.'),
    save: t('Save'),
    mail: t('Mail draft'),
    mailTo: t('To'),
    mailSubject: t('Subject'),
    mailBody: t('Message'),
    mailFrom: t('From'),
    mailSend: t('Send'),
    mailDiscard: t('Discard'),
    mailSending: t('Sending…'),
    mailDiscarded: t('The mail draft was discarded.'),
    mailGoesOut: (time) => t('Goes out at {0} unless you undo it.', time),
    mailUndo: t('Undo Send'),
    mailUndone: t('Not sent: the mail draft is back on the Board.'),
    mailNotSetUp: t('Mail is not set up: set xos.mail.host and xos.mail.from in the settings.'),
    mailToInvalid: t('Enter an address like name@example.com or Name <name@example.com>.'),
    openRow: t('Open'),
    none: t('—'),
    yes: t('Yes'),
    no: t('No'),
    filter: t('Filter'),
    filterPlaceholder: t('Filter the shown columns'),
    exportCsv: t('Export CSV'),
    loading: t('Loading…'),
    noRows: t('No records.'),
    noMatches: t('No records match the filter.'),
    noMatchesNarrowed: t('No records match the filter. The agent narrowed this list to the records where {where}; Show all searches every record.'),
    narrowedHint: t('The agent narrowed this list'),
    showAll: t('Show all'),
    rowsFailed: t('The rows could not be loaded: {error}'),
    countOne: t('1 record'),
    countMany: t('{count} records'),
    countFiltered: t('{count} of {total} records'),
    resizeColumn: t('Resize column'),
    sortHint: t('Click a column header to sort. Enter opens a row.'),
    copyHint: t('Ctrl+C copies the cell, Ctrl+Shift+C the row.'),
    fixProblems: t('Correct the marked fields to save.'),
    edited: t('Changed by you'),
    hiddenFromAgent: t('Not shown to the agent'),
    history: t('History'),
    historyEmpty: t('No changes of this record are recorded yet.'),
    historyOff: t('XOS records no history here: the app works on the database\'s own tables, and its AST does not allow XOS its own audit table ("audit": true allows it).'),
    historyLoading: t('Loading the history…'),
    historyFailed: t('The history cannot be read right now.'),
    byAgent: t('The agent'),
    byBoard: t('You on the Board'),
    byApi: t('Another client'),
    created: t('Created'),
    changed: t('Changed'),
    deleted: t('Deleted'),
    undo: t('Undo'),
    undoHint: t('Puts the old values back into the form; nothing is saved until you confirm.'),
    maskedForAgent: t('The agent sees only that a value exists'),
    accept: t('Accept'),
    revert: t('Revert'),
    acceptAll: t('Accept all proposals'),
    revertAll: t('Revert all proposals'),
    discard: t('Discard changes'),
    unsaved: t('Unsaved changes'),
    conflictTitle: t('Changed by someone else meanwhile'),
    conflictBase: t('When loaded'),
    conflictTheirs: t('Stored now'),
    conflictMine: t('Yours'),
    keepMine: t('Keep yours'),
    keepTheirs: t('Keep stored'),
    settleConflicts: t('Someone else saved this record meanwhile: choose per marked field which value to keep, then save.'),
    newRecord: t('New record, not saved yet'),
    create: t('New'),
    delete: t('Delete'),
    presenceLabel: t('Others on this record'),
    personEditing: t('{name} is editing'),
    personViewing: t('{name} has this record open'),
    rowEditing: t('{name} is editing this record'),
    deletedMeanwhile: t('Someone else deleted this record meanwhile: it can no longer be saved.'),
    questionWaitingOne: t('1 more question waiting'),
    questionsWaiting: t('{count} more questions waiting'),
    reviewCount: t('{accepted} of {rows} rows will change'),
    reviewCountOne: t('{accepted} of 1 row will change'),
    reviewCountInvalid: t('{count} invalid'),
    reviewCountUnchanged: t('{count} unchanged'),
    reviewCountConflicts: t('{count} changed meanwhile'),
    reviewFilters: t('Show rows'),
    reviewFilterChanged: t('Changed'),
    reviewFilterInvalid: t('Invalid'),
    reviewFilterConflicts: t('Conflicts'),
    reviewFilterAll: t('All'),
    reviewAcceptAll: t('Accept all'),
    reviewRejectAll: t('Reject all'),
    reviewDiscard: t('Discard'),
    reviewNothingToSave: t('Nothing to save: accept at least one valid change.'),
    reviewSettleConflicts: t('Someone else changed some rows meanwhile: accept or reject them again, then save.'),
    reviewApplyColumn: t('Apply'),
    reviewStatusColumn: t('Note'),
    reviewAcceptRow: t('Apply the changes of {row}'),
    reviewAcceptCell: t('Accept {field}'),
    reviewRejectCell: t('Reject {field}'),
    reviewCellAccepted: t('{field}: {from} → {to}, accepted'),
    reviewCellRejected: t('{field}: {from} → {to}, rejected'),
    reviewCellKept: t('{field}: not changed'),
    reviewCellEdited: t('your value'),
    reviewRowInvalid: t('Not saved: {problem}'),
    reviewRowConflict: t('Changed by someone else meanwhile: accept or reject it again.'),
    reviewNoRows: t('No rows in this view.'),
    reviewHint: t('Space accepts or rejects the cell or row; Enter or F2 edits a proposed value, Enter keeps it, Escape cancels.'),
    reviewEditLabel: t('New value of {field}'),
    gridChangesOne: t('1 unsaved change'),
    gridChangesMany: t('{count} unsaved changes'),
    gridSave: t('Save Changes…'),
    gridDiscard: t('Discard Changes'),
    gridCellEdited: t('{field}: {value}, changed, not saved'),
    gridHint: t('F2 or a double-click edits a cell; Enter keeps the value, Escape cancels; Save Changes asks once for all of them.'),
    reviewRequired: t('Required.'),
    typeProblems: Object.fromEntries(fieldTypeRows().flatMap(([type, row]) => (row.problem ? [[type, t(row.problem.text)]] : []))),
    reviewMin: t('At least {0}.'),
    reviewMax: t('At most {0}.'),
    reviewNotValid: t('This value cannot be saved.'),
    reviewUndoOf: (records) => (records === 1 ? t('Undo of a change to 1 record') : t('Undo of a change to {0} records', records)),
    approvalsTitle: t('Waiting for your decision'),
    approve: t('Approve'),
    decline: t('Decline'),
    approveLabel: t('Approve: {question}'),
    declineLabel: t('Decline: {question}'),
    approvalAskedAt: t('asked at {time}'),
    approvalExpiresIn: t('expires in {minutes} min'),
    approvalExpiresSoon: t('expires in less than a minute'),
    approvalExpired: t('expired'),
    approvalDeciding: t('Carrying out your decision…'),
    saving: t('Saving…'),
    records: (count) => (count === 1 ? t('1 record') : t('{0} records', count)),
    readOnly: (reason) => t('Read only: {0}', reason),
    problem: (p) => {
      const limit = 'limit' in p ? p.limit : '';
      switch (p.code) {
        case 'required': return t('Required.');
        case 'scale': return t('Too many digits after the decimal point.');
        case 'min': return t('At least {0}.', limit);
        case 'max': return t('At most {0}.', limit);
        case 'minLength': return t('At least {0} characters.', limit);
        case 'maxLength': return t('At most {0} characters.', limit);
        default: {
          // A type's own problem: its row's text.
          const text = fieldTypeRows().find(([, row]) => row.problem?.code === p.code)?.[1].problem?.text;
          return text === undefined ? t('This value cannot be saved.') : t(text);
        }
      }
    },
    openFailed: (what, reason) => t('Could not open {0}: {1}', what, reason),
    exported: (count, file) => t('{0} records exported to {1}.', count, file),
  };
}

/** The l10n bundles by language; English is the source and needs none. */
const bundles: Readonly<Record<string, Readonly<Record<string, string>>>> = { de: german };

/** The languages the Board speaks. */
export const boardLanguages: readonly string[] = ['en', ...Object.keys(bundles)];

function fill(text: string, args: ReadonlyArray<string | number>): string {
  return text.replace(/\{(\d+)\}/g, (whole, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : whole));
}

const cache = new Map<string, BoardTexts>();

function bundleOf(locale: string): { key: string; bundle: Readonly<Record<string, string>> | undefined } {
  const language = locale.toLowerCase().split('-')[0];
  const bundle = Object.hasOwn(bundles, language) ? bundles[language] : undefined;
  return { key: bundle ? language : 'en', bundle };
}

/** Any text of the l10n bundles in a locale (what vscode.l10n.t does, for front ends without VS Code). */
export function translator(locale: string): Translate {
  const { bundle } = bundleOf(locale);
  return (english, ...args) => fill(bundle && Object.hasOwn(bundle, english) ? bundle[english] : english, args);
}

/** Texts for a locale tag (`de`, `de-AT`, `en-US`); English for a language without a bundle. */
export function boardTexts(locale: string): BoardTexts {
  const { key } = bundleOf(locale);
  let texts = cache.get(key);
  if (!texts) {
    texts = textsThrough(translator(locale));
    cache.set(key, texts);
  }
  return texts;
}
