// The inline card's view (MCP Apps): shows what an XOS tool put on the Board — a list's first
// rows and count, a record, the agent's proposed changes, a mail draft — from the tool
// result's `_meta["xos/card"]`. A view only: no save, no send. "Open in Board" opens the
// browser Board when the server knows one, or asks the host to call the same read-only tool
// again (xos_query, xos_render), which shows the data on the Board. Built by esbuild.mjs into
// dist/webview/card.js and inlined into the card's HTML (src/mcp/apps/card.ts).
import { App, PostMessageTransport, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { CARD_META_KEY, type Card } from '../../src/mcp/apps/cardTypes.ts';
import { cardTexts, type CardTexts } from './texts.ts';

/** The tools whose calls only show read-only data again, so a card may repeat them. */
const RESHOWABLE = new Set(['xos_query', 'xos_render']);
const KINDS = new Set(['list', 'record', 'changes', 'mail']);

interface ToolResult {
  readonly isError?: boolean;
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly _meta?: Record<string, unknown>;
}

const root = document.getElementById('xos-card')!;
const app = new App({ name: 'XOS card', version: '1.0.0' }, {});

let locale = navigator.language;
let texts: CardTexts = cardTexts(locale);
let card: Card | undefined;
let received = false;
let toolArgs: Record<string, unknown> | undefined;
let status = '';

app.ontoolinput = (params) => {
  toolArgs = params.arguments;
  render();
};
app.ontoolresult = (params) => {
  received = true;
  card = cardOf(params as ToolResult);
  status = '';
  render();
};
app.onhostcontextchanged = (context) => {
  applyContext(context);
  render();
};

render();
app.connect(new PostMessageTransport(window.parent, window.parent)).then(() => {
  const context = app.getHostContext();
  if (context) applyContext(context);
  render();
}).catch(() => {
  // Without a host there is nothing to show; the chat still has the tool's text reply.
});

function applyContext(context: McpUiHostContext): void {
  if (context.locale) {
    locale = context.locale;
    texts = cardTexts(locale);
    document.documentElement.lang = locale.toLowerCase().startsWith('de') ? 'de' : 'en';
  }
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

function cardOf(result: ToolResult): Card | undefined {
  if (result.isError) return undefined;
  const value = result._meta?.[CARD_META_KEY] as Card | undefined;
  return value && typeof value === 'object' && KINDS.has(value.kind) ? value : undefined;
}

function render(): void {
  const parts: Node[] = [];
  if (!received) parts.push(el('p', { class: 'meta' }, texts.waiting));
  else if (!card) parts.push(el('p', { class: 'meta' }, texts.noCard));
  else {
    parts.push(...body(card));
    if (card.cut) parts.push(el('p', { class: 'note' }, texts.shortened));
    parts.push(...openAction(card));
  }
  if (status) parts.push(el('p', { class: 'note', role: 'status' }, status));
  root.replaceChildren(...parts);
}

function body(shown: Card): Node[] {
  const number = (n: number) => new Intl.NumberFormat(locale).format(n);
  switch (shown.kind) {
    case 'list': {
      const count = texts.records(number(shown.total));
      const meta = shown.rows.length < shown.total ? `${count}, ${texts.firstRows(number(shown.rows.length))}` : count;
      return [
        el('h1', {}, shown.title),
        el('p', { class: 'meta', 'data-total': String(shown.total) }, meta),
        table(shown.columns.map((c) => c.label), shown.rows),
      ];
    }
    case 'record':
      return [el('h1', {}, shown.title), fieldsTable(shown.fields.map((f) => [f.label, f.value]))];
    case 'changes':
      return [
        el('h1', {}, `${texts.changesTitle}: ${shown.record}`),
        changesTable(shown.changes),
        el('p', { class: 'note' }, texts.changesNote),
      ];
    case 'mail':
      return [
        el('h1', {}, texts.mailTitle),
        fieldsTable([[texts.to, shown.to], [texts.subject, shown.subject]]),
        el('pre', { class: 'body' }, shown.body),
        el('p', { class: 'note' }, texts.mailNote),
      ];
  }
}

/** The Open in Board button, or the note that the Board in VS Code shows it. */
function openAction(shown: Card): Node[] {
  const open = shown.open;
  if (open.kind === 'url') return [button(() => openUrl(open.url))];
  const canCall = app.getHostCapabilities()?.serverTools !== undefined;
  if (open.kind === 'reshow' && RESHOWABLE.has(shown.tool) && toolArgs && canCall) return [button(() => reshow(shown.tool, toolArgs!))];
  return [el('p', { class: 'note' }, texts.boardInVsCode)];
}

function button(action: () => Promise<void>): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'open' }, texts.openInBoard) as HTMLButtonElement;
  b.addEventListener('click', () => {
    b.disabled = true;
    action().catch(() => {
      status = texts.openFailed;
    }).finally(() => {
      render();
    });
  });
  return b;
}

async function openUrl(url: string): Promise<void> {
  const result = await app.openLink({ url });
  status = result.isError ? `${texts.openFailed} ${url}` : '';
}

async function reshow(tool: string, args: Record<string, unknown>): Promise<void> {
  const result = await app.callServerTool({ name: tool, arguments: args }) as ToolResult;
  const text = (result.content ?? []).map((c) => c.text ?? '').join('');
  status = result.isError ? `${texts.openFailed} ${text}` : texts.shownOnBoard;
}

/** A list's rows: one line per row, long cells cut with an ellipsis (the full text in their title), scrolling sideways in a narrow chat. */
function table(headers: readonly string[], rows: readonly (readonly string[])[]): HTMLElement {
  return el('div', { class: 'rows' }, el('table', {},
    el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((cell) => el('td', { title: cell }, cell)))))));
}

function fieldsTable(pairs: ReadonlyArray<readonly [string, string]>): HTMLElement {
  return el('table', {}, el('tbody', {}, ...pairs.map(([label, value]) => el('tr', {}, el('th', { scope: 'row' }, label), el('td', {}, value)))));
}

function changesTable(changes: ReadonlyArray<{ label: string; from: string; to: string }>): HTMLElement {
  return el('table', {},
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, texts.field), el('th', { scope: 'col' }, texts.before), el('th', { scope: 'col' }, texts.after))),
    el('tbody', {}, ...changes.map((c) => el('tr', {}, el('th', { scope: 'row' }, c.label), el('td', { class: 'old' }, c.from), el('td', { class: 'new' }, c.to)))));
}

/** An element with attributes and children; text goes in as text, never as HTML. */
function el(tag: string, attributes: Record<string, string>, ...children: Array<Node | string>): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}
