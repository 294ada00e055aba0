// The Board as a whole: the page says it is ready and picks a locale; the host sends the locale
// and texts, which list, form or mail draft shows, the breadcrumb, the connection and the status
// line (src/board/controller.ts).
import type { HistoryView, OpenableContext } from '../../core/domain.ts';
import type { DetailBlock, ListBlock, MailBlock, WebviewTexts } from '../viewTypes.ts';
import { isEmptyParams, isObject, isText, notification } from './messages.ts';

/** The webview is loaded and listens; the host answers with every part of the Board. */
export const ready = notification<Record<string, never>>('board/ready', isEmptyParams);

/** The Board's locale, its own texts and the contexts the person can open; sent first and when the locale or the app changes. */
export const locale = notification<{
  readonly locale: string; readonly texts: WebviewTexts; readonly contexts: readonly OpenableContext[]; readonly locales?: readonly string[];
  /** The app's name (src/ast/appName.ts): the start page's heading and the breadcrumb's root, which leads back to it. */
  readonly app?: string;
}>('board/locale');

/** The person chose another of the app's locales on the Board. */
export const setLocale = notification<{ readonly locale: string }>('board/setLocale',
  (v): v is { locale: string } => isObject(v) && isText(v.locale, 35) && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(v.locale));

/** The list (columns, total, first rows), or null when the Board shows none. */
export const list = notification<{ readonly list: ListBlock | null }>('board/list');

/** The detail form, or null. */
export const detail = notification<{ readonly detail: DetailBlock | null }>('board/detail');

/** Where Back and Forward lead, and the breadcrumb. */
export const history = notification<{ readonly history: HistoryView }>('board/history');

/** The mail draft, or null. */
export const mail = notification<{ readonly mail: MailBlock | null }>('board/mail');

export interface StatusLine {
  readonly kind: 'info' | 'error' | 'busy';
  readonly text: string;
}

/** A line for the person: a save in progress, its outcome, a row that could not be opened. */
export const status = notification<{ readonly status: StatusLine | null }>('board/status');

/** What the Board works on: the app, the data source and whether it answers; production data gets a banner. */
export interface ConnectionLine {
  readonly app: string;
  /** `sqlite`, `postgres`, or another kind the data source names. */
  readonly kind: string;
  /** Through an XOS server (xos.endpoint) rather than the embedded backend. */
  readonly remote: boolean;
  readonly reachable: boolean;
  readonly latencyMs: number | null;
  readonly production: boolean;
}

export const connection = notification<{ readonly connection: ConnectionLine | null }>('board/connection');
