// The Board's own texts (the AST brings the labels of contexts and fields).
import type { ValueProblem } from '../backend/values.ts';
// The webview cannot use vscode.l10n, so the host picks these by locale and sends them.

export interface BoardTexts {
  readonly title: string;
  readonly empty: string;
  /** The start page's list of contexts the person can open (its accessible name). */
  readonly openContexts: string;
  /** Back and Forward through the lists and records shown, and the breadcrumb's accessible name. */
  readonly back: string;
  readonly forward: string;
  readonly breadcrumb: string;
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
  readonly mailNotSetUp: string;
  readonly mailToInvalid: string;
  readonly records: (count: number) => string;
  readonly openRow: string;
  readonly none: string;
  readonly yes: string;
  readonly no: string;
  readonly version: (version: number) => string;
  /** Grid: the quick filter's accessible name and placeholder. */
  readonly filter: string;
  readonly filterPlaceholder: string;
  readonly exportCsv: string;
  readonly loading: string;
  readonly noRows: string;
  readonly noMatches: string;
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
  /** Host-side status lines. */
  readonly saving: string;
  readonly openFailed: (what: string, reason: string) => string;
  readonly exported: (count: number, file: string) => string;
}

const en: BoardTexts = {
  title: 'XOS Board',
  empty: 'Nothing is shown yet. Open a list below, or ask the agent in the chat.',
  openContexts: 'Open a list',
  back: 'Back',
  forward: 'Forward',
  breadcrumb: 'Breadcrumb',
  language: 'Language of the Board',
  connected: 'connected, {ms} ms',
  unreachable: 'not reachable',
  remote: 'XOS server',
  production: 'Production data: every save and send is asked for in a dialog.',
  proposed: 'Proposed by the agent',
  proposedHint: 'Not saved yet: the agent proposed this change.',
  save: 'Save',
  mail: 'Mail draft',
  mailTo: 'To',
  mailSubject: 'Subject',
  mailBody: 'Message',
  mailFrom: 'From',
  mailSend: 'Send',
  mailDiscard: 'Discard',
  mailSending: 'Sending…',
  mailDiscarded: 'The mail draft was discarded.',
  mailNotSetUp: 'Mail is not set up: set xos.mail.host and xos.mail.from in the settings.',
  mailToInvalid: 'Enter an address like name@example.com or Name <name@example.com>.',
  records: (count) => (count === 1 ? '1 record' : `${count} records`),
  openRow: 'Open',
  none: '—',
  yes: 'Yes',
  no: 'No',
  version: (version) => `Version ${version}`,
  filter: 'Filter',
  filterPlaceholder: 'Filter the shown columns',
  exportCsv: 'Export CSV',
  loading: 'Loading…',
  noRows: 'No records.',
  noMatches: 'No records match the filter.',
  rowsFailed: 'The rows could not be loaded: {error}',
  countOne: '1 record',
  countMany: '{count} records',
  countFiltered: '{count} of {total} records',
  resizeColumn: 'Resize column',
  sortHint: 'Click a column header to sort. Enter opens a row.',
  copyHint: 'Ctrl+C copies the cell, Ctrl+Shift+C the row.',
  problem: (p) => {
    switch (p.code) {
      case 'required': return 'Required.';
      case 'integer': return 'Enter a whole number.';
      case 'decimal': return 'Enter a number like 1234.50 (no thousands separators).';
      case 'scale': return 'Too many digits after the decimal point.';
      case 'date': return 'Enter a real date.';
      case 'datetime': return 'Enter a real date and time.';
      case 'enum': return 'Choose one of the options.';
      case 'email': return 'Enter an email address like name@example.com.';
      case 'phone': return 'Enter a phone number: digits, spaces and - / ( ), optionally a leading +.';
      case 'url': return 'Enter a web address starting with https:// or http://.';
      case 'min': return `At least ${p.limit}.`;
      case 'max': return `At most ${p.limit}.`;
      case 'minLength': return `At least ${p.limit} characters.`;
      case 'maxLength': return `At most ${p.limit} characters.`;
      default: return 'This value cannot be saved.';
    }
  },
  fixProblems: 'Correct the marked fields to save.',
  edited: 'Changed by you',
  accept: 'Accept',
  revert: 'Revert',
  acceptAll: 'Accept all proposals',
  revertAll: 'Revert all proposals',
  discard: 'Discard changes',
  unsaved: 'Unsaved changes',
  conflictTitle: 'Changed by someone else meanwhile',
  conflictBase: 'When loaded',
  conflictTheirs: 'Stored now',
  conflictMine: 'Yours',
  keepMine: 'Keep yours',
  keepTheirs: 'Keep stored',
  settleConflicts: 'Someone else saved this record meanwhile: choose per marked field which value to keep, then save.',
  newRecord: 'New record, not saved yet',
  create: 'New',
  delete: 'Delete',
  saving: 'Saving…',
  openFailed: (what, reason) => `Could not open ${what}: ${reason}`,
  exported: (count, file) => `${count} records exported to ${file}.`,
};

const de: BoardTexts = {
  title: 'XOS-Board',
  empty: 'Noch wird nichts angezeigt. Öffnen Sie unten eine Liste oder fragen Sie den Agenten im Chat.',
  openContexts: 'Liste öffnen',
  back: 'Zurück',
  forward: 'Vor',
  breadcrumb: 'Navigationspfad',
  language: 'Sprache des Boards',
  connected: 'verbunden, {ms} ms',
  unreachable: 'nicht erreichbar',
  remote: 'XOS-Server',
  production: 'Produktivdaten: Jedes Speichern und Senden wird in einem Dialog bestätigt.',
  proposed: 'Vom Agenten vorgeschlagen',
  proposedHint: 'Noch nicht gespeichert: der Agent hat diese Änderung vorgeschlagen.',
  save: 'Speichern',
  mail: 'E-Mail-Entwurf',
  mailTo: 'An',
  mailSubject: 'Betreff',
  mailBody: 'Nachricht',
  mailFrom: 'Von',
  mailSend: 'Senden',
  mailDiscard: 'Verwerfen',
  mailSending: 'Wird gesendet…',
  mailDiscarded: 'Der E-Mail-Entwurf wurde verworfen.',
  mailNotSetUp: 'E-Mail ist nicht eingerichtet: Setzen Sie xos.mail.host und xos.mail.from in den Einstellungen.',
  mailToInvalid: 'Geben Sie eine Adresse wie name@example.com oder Name <name@example.com> ein.',
  records: (count) => (count === 1 ? '1 Datensatz' : `${count} Datensätze`),
  openRow: 'Öffnen',
  none: '—',
  yes: 'Ja',
  no: 'Nein',
  version: (version) => `Version ${version}`,
  filter: 'Filter',
  filterPlaceholder: 'Angezeigte Spalten filtern',
  exportCsv: 'CSV exportieren',
  loading: 'Wird geladen…',
  noRows: 'Keine Datensätze.',
  noMatches: 'Keine Datensätze passen zum Filter.',
  rowsFailed: 'Die Zeilen konnten nicht geladen werden: {error}',
  countOne: '1 Datensatz',
  countMany: '{count} Datensätze',
  countFiltered: '{count} von {total} Datensätzen',
  resizeColumn: 'Spaltenbreite ändern',
  sortHint: 'Zum Sortieren auf einen Spaltenkopf klicken. Eingabe öffnet eine Zeile.',
  copyHint: 'Strg+C kopiert die Zelle, Strg+Umschalt+C die Zeile.',
  problem: (p) => {
    switch (p.code) {
      case 'required': return 'Pflichtfeld.';
      case 'integer': return 'Geben Sie eine ganze Zahl ein.';
      case 'decimal': return 'Geben Sie eine Zahl wie 1234.50 ein (ohne Tausendertrennzeichen).';
      case 'scale': return 'Zu viele Nachkommastellen.';
      case 'date': return 'Geben Sie ein gültiges Datum ein.';
      case 'datetime': return 'Geben Sie ein gültiges Datum mit Uhrzeit ein.';
      case 'enum': return 'Wählen Sie eine der Möglichkeiten.';
      case 'email': return 'Geben Sie eine E-Mail-Adresse wie name@example.com ein.';
      case 'phone': return 'Geben Sie eine Telefonnummer ein: Ziffern, Leerzeichen und - / ( ), optional ein führendes +.';
      case 'url': return 'Geben Sie eine Webadresse ein, die mit https:// oder http:// beginnt.';
      case 'min': return `Mindestens ${p.limit}.`;
      case 'max': return `Höchstens ${p.limit}.`;
      case 'minLength': return `Mindestens ${p.limit} Zeichen.`;
      case 'maxLength': return `Höchstens ${p.limit} Zeichen.`;
      default: return 'Dieser Wert kann nicht gespeichert werden.';
    }
  },
  fixProblems: 'Korrigieren Sie die markierten Felder, um zu speichern.',
  edited: 'Von Ihnen geändert',
  accept: 'Übernehmen',
  revert: 'Zurücksetzen',
  acceptAll: 'Alle Vorschläge übernehmen',
  revertAll: 'Alle Vorschläge verwerfen',
  discard: 'Änderungen verwerfen',
  unsaved: 'Ungespeicherte Änderungen',
  conflictTitle: 'Inzwischen von jemand anderem geändert',
  conflictBase: 'Beim Laden',
  conflictTheirs: 'Jetzt gespeichert',
  conflictMine: 'Ihrer',
  keepMine: 'Ihren behalten',
  keepTheirs: 'Gespeicherten behalten',
  settleConflicts: 'Jemand anderes hat diesen Datensatz inzwischen gespeichert: Wählen Sie je markiertem Feld, welcher Wert bleibt, und speichern Sie dann.',
  newRecord: 'Neuer Datensatz, noch nicht gespeichert',
  create: 'Neu',
  delete: 'Löschen',
  saving: 'Wird gespeichert…',
  openFailed: (what, reason) => `${what} konnte nicht geöffnet werden: ${reason}`,
  exported: (count, file) => `${count} Datensätze nach ${file} exportiert.`,
};

/** Texts for a locale tag (`de`, `de-AT`, `en-US`); English for anything else. */
export function boardTexts(locale: string): BoardTexts {
  return locale.toLowerCase().split('-')[0] === 'de' ? de : en;
}
