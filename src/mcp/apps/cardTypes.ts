// What an inline card (MCP Apps) shows: the data a tool result carries in
// `_meta["xos/card"]` for the card's view. Types only, so the card's browser
// bundle (webview/card/main.ts) shares them without any Node code.

/** The `_meta` key of a tool result that holds its card. */
export const CARD_META_KEY = 'xos/card';

/** A column or a field of a record: its name and its label in the Board's locale. */
export interface CardField {
  readonly field: string;
  readonly label: string;
}

/** A list: the first rows (at most ten), as display texts per column, and how many rows match. */
export interface ListCard {
  readonly kind: 'list';
  readonly tool: string;
  readonly context: string;
  readonly title: string;
  readonly columns: readonly CardField[];
  readonly rows: readonly (readonly string[])[];
  readonly total: number;
}

/** One record, its fields as display texts. */
export interface RecordCard {
  readonly kind: 'record';
  readonly tool: string;
  readonly context: string;
  readonly title: string;
  readonly fields: ReadonlyArray<CardField & { readonly value: string }>;
}

/** The agent's proposed changes of a loaded record, old -> new; nothing saved. */
export interface ChangesCard {
  readonly kind: 'changes';
  readonly tool: string;
  readonly context: string;
  readonly title: string;
  readonly record: string;
  readonly changes: ReadonlyArray<CardField & { readonly from: string; readonly to: string }>;
}

/** A mail draft; nothing sent. The body is a preview (cut). */
export interface MailCard {
  readonly kind: 'mail';
  readonly tool: string;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
}

export type CardBody = ListCard | RecordCard | ChangesCard | MailCard;

/**
 * What "Open in Board" does: `url` — the browser Board's address (the host opens it);
 * `reshow` — call the same read-only tool again with the same arguments, which shows
 * the data on the Board again; `none` — the Board in VS Code already shows it.
 */
export type CardOpen = { readonly kind: 'url'; readonly url: string } | { readonly kind: 'reshow' } | { readonly kind: 'none' };

export type Card = CardBody & {
  readonly open: CardOpen;
  /** Rows, fields or body text were left out to keep the card small. */
  readonly cut?: boolean;
};

/** The card of one kind, with its open action. */
export type CardOf<Kind extends Card['kind']> = Extract<Card, { readonly kind: Kind }>;
