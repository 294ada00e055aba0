// A record's audit entries as the Board shows them: when, who (the agent, the person on the
// Board, another client; by name where the trail knows the person), what (created, changed, deleted) and each field old -> new, in the
// Board's locale; saves carry an Undo.
import type { Ast } from '../ast/schema.ts';
import type { AuditEntry } from '../backend/storage/audit.ts';
import { fieldKind } from '../ast/fieldKinds.ts';
import { keepsAudit } from '../ast/lookup.ts';
import { appModel } from '../ast/appModel.ts';
import { boardTexts, translator } from './texts.ts';

export interface HistoryChangeView {
  readonly label: string;
  readonly from: string;
  readonly to: string;
}

export interface HistoryEntryView {
  readonly id: number;
  /** ISO 8601 UTC (a `<time datetime>`), and as the person reads it. */
  readonly at: string;
  readonly when: string;
  readonly who: string;
  readonly what: string;
  readonly approval?: string;
  readonly changes: readonly HistoryChangeView[];
  /** A save: the person may undo it (asked first; a newer version becomes a conflict). */
  readonly canUndo: boolean;
}

export interface RecordHistoryView {
  /** The record (`person_detail:12`) the entries belong to. */
  readonly key: string;
  readonly entries: readonly HistoryEntryView[];
  /** The app keeps no audit trail (its AST does not allow XOS its table in the database's own): no entries, ever. */
  readonly off?: boolean;
}

/** `names`: the referenced records' names by `entity:id` (see referencedNames); a ref without one shows its id. */
/** `batches`: how many records each audit batch of the entries changed; such an entry is one part of one change, undone whole. */
export function recordHistoryView(ast: Ast, locale: string, contextName: string, key: string, entries: readonly AuditEntry[],
  names: ReadonlyMap<string, string> = new Map(), batches: ReadonlyMap<string, number> = new Map()): RecordHistoryView {
  const t = translator(locale);
  const count = new Intl.NumberFormat(locale);
  const texts = boardTexts(locale);
  const context = appModel(ast, locale).context(contextName);
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  const who = { agent: texts.byAgent, board: texts.byBoard, api: texts.byApi } as const;
  const whoByName = {
    agent: (name: string) => t('The agent for {0}', name),
    board: (name: string) => t('{0} on the Board', name),
    api: (name: string) => t('{0} through another client', name),
  } as const;
  const what = { create: texts.created, update: texts.changed, delete: texts.deleted, mail: texts.mail } as const;
  return {
    key,
    ...(keepsAudit(ast) ? {} : { off: true }),
    entries: entries.map((entry) => ({
      id: entry.id,
      at: entry.at,
      when: when.format(new Date(entry.at)),
      who: entry.person ? whoByName[entry.path]?.(entry.person) ?? entry.person : who[entry.path] ?? entry.path,
      what: entry.batch && batches.has(entry.batch)
        ? t('{0} (one change to {1} records)', what[entry.action] ?? entry.action, count.format(batches.get(entry.batch)!))
        : what[entry.action] ?? entry.action,
      ...(entry.approval ? { approval: entry.approval } : {}),
      changes: Object.entries(entry.changes).map(([field, change]) => {
        const model = context?.fields.find((f) => f.field === field);
        if (!model) return { label: field, from: plain(change.from, texts.none), to: plain(change.to, texts.none) };
        const format = { locale, none: texts.none, yes: texts.yes, no: texts.no, enumLabels: model.enumLabels, widget: model.widget };
        const kind = fieldKind(model.type);
        // A ref is stored as the related id: shown by its name where known ("Acme (#3)").
        const refText = (value: unknown) => {
          const name = names.get(`${model.refEntity}:${String(value)}`);
          return name ? `${name} (#${String(value)})` : `#${String(value)}`;
        };
        const show = (value: unknown) => (model.type === 'ref' ? (value === null ? texts.none : refText(value)) : kind.format(value, format));
        return { label: model.label, from: show(change.from), to: show(change.to) };
      }),
      canUndo: entry.action === 'update',
    })),
  };
}

function plain(value: unknown, none: string): string {
  return value === null || value === undefined || value === '' ? none : String(value);
}
