// The Board's own texts (the AST brings the labels of contexts and fields).
// The webview cannot use vscode.l10n, so the host picks these by locale and sends them.

export interface BoardTexts {
  readonly title: string;
  readonly empty: string;
  readonly proposed: string;
  readonly proposedHint: string;
  readonly save: string;
  readonly mail: string;
  readonly mailTo: string;
  readonly mailSubject: string;
  readonly mailBody: string;
  readonly records: (count: number) => string;
  readonly openRow: string;
  readonly none: string;
  readonly yes: string;
  readonly no: string;
  readonly version: (version: number) => string;
}

const en: BoardTexts = {
  title: 'XOS Board',
  empty: 'Nothing to show yet. Ask the agent to load the XOS schema and run a query.',
  proposed: 'Proposed by the agent',
  proposedHint: 'Not saved yet: the agent proposed this change.',
  save: 'Save',
  mail: 'Mail draft',
  mailTo: 'To',
  mailSubject: 'Subject',
  mailBody: 'Message',
  records: (count) => (count === 1 ? '1 record' : `${count} records`),
  openRow: 'Open',
  none: '—',
  yes: 'Yes',
  no: 'No',
  version: (version) => `Version ${version}`,
};

const de: BoardTexts = {
  title: 'XOS-Board',
  empty: 'Noch nichts anzuzeigen. Bitten Sie den Agenten, das XOS-Schema zu laden und eine Abfrage auszuführen.',
  proposed: 'Vom Agenten vorgeschlagen',
  proposedHint: 'Noch nicht gespeichert: der Agent hat diese Änderung vorgeschlagen.',
  save: 'Speichern',
  mail: 'E-Mail-Entwurf',
  mailTo: 'An',
  mailSubject: 'Betreff',
  mailBody: 'Nachricht',
  records: (count) => (count === 1 ? '1 Datensatz' : `${count} Datensätze`),
  openRow: 'Öffnen',
  none: '—',
  yes: 'Ja',
  no: 'Nein',
  version: (version) => `Version ${version}`,
};

/** Texts for a locale tag (`de`, `de-AT`, `en-US`); English for anything else. */
export function boardTexts(locale: string): BoardTexts {
  return locale.toLowerCase().split('-')[0] === 'de' ? de : en;
}
