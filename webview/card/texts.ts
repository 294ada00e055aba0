// The inline card's own words, in English and German (the host context's locale picks).

export interface CardTexts {
  readonly waiting: string;
  readonly noCard: string;
  readonly records: (count: string) => string;
  readonly firstRows: (shown: string) => string;
  readonly shortened: string;
  readonly changesTitle: string;
  readonly changesNote: string;
  readonly field: string;
  readonly before: string;
  readonly after: string;
  readonly mailTitle: string;
  readonly mailNote: string;
  readonly to: string;
  readonly subject: string;
  readonly openInBoard: string;
  readonly boardInVsCode: string;
  readonly shownOnBoard: string;
  readonly openFailed: string;
}

const en: CardTexts = {
  waiting: 'Waiting for the result…',
  noCard: 'This result has nothing to show here; the Board shows it.',
  records: (count) => `${count} ${count === '1' ? 'record' : 'records'}`,
  firstRows: (shown) => `the first ${shown} shown here`,
  shortened: 'Shortened to fit the chat.',
  changesTitle: 'Proposed changes, not saved',
  changesNote: 'Nothing is saved until you confirm it.',
  field: 'Field',
  before: 'Now',
  after: 'Proposed',
  mailTitle: 'Mail draft, not sent',
  mailNote: 'Nothing is sent until you confirm it.',
  to: 'To',
  subject: 'Subject',
  openInBoard: 'Open in Board',
  boardInVsCode: 'The Board in VS Code shows it.',
  shownOnBoard: 'Shown on the Board.',
  openFailed: 'The Board could not be opened.',
};

const de: CardTexts = {
  waiting: 'Warte auf das Ergebnis…',
  noCard: 'Dieses Ergebnis zeigt hier nichts; das Board zeigt es.',
  records: (count) => `${count} ${count === '1' ? 'Datensatz' : 'Datensätze'}`,
  firstRows: (shown) => `die ersten ${shown} hier`,
  shortened: 'Für den Chat gekürzt.',
  changesTitle: 'Vorgeschlagene Änderungen, nicht gespeichert',
  changesNote: 'Gespeichert wird erst nach Ihrer Bestätigung.',
  field: 'Feld',
  before: 'Jetzt',
  after: 'Vorschlag',
  mailTitle: 'Mail-Entwurf, nicht gesendet',
  mailNote: 'Gesendet wird erst nach Ihrer Bestätigung.',
  to: 'An',
  subject: 'Betreff',
  openInBoard: 'Im Board öffnen',
  boardInVsCode: 'Das Board in VS Code zeigt es.',
  shownOnBoard: 'Im Board angezeigt.',
  openFailed: 'Das Board konnte nicht geöffnet werden.',
};

/** German for a German locale (de, de-DE, de-AT …), English otherwise. */
export function cardTexts(locale: string | undefined): CardTexts {
  return locale?.toLowerCase().startsWith('de') ? de : en;
}
