// The README's tool table, made from the tool registry so the docs cannot drift from the tools.
import { z } from 'zod';
import type { XosTool } from './ports.ts';
import { XOS_TOOLS } from './registry.ts';

export const TOOL_TABLE_START = '<!-- xos-tools:start (made by npm run docs:tools from src/mcp/registry.ts) -->';
export const TOOL_TABLE_END = '<!-- xos-tools:end -->';

const PRECONDITION_TEXT = { schema: 'xos_schema first', mailer: 'mail configured', contacts: 'contacts configured' } as const;

/** The markdown table of every tool: name, what it does (its description's first sentence), parameters (optional ones marked), needs, and whether it changes anything. */
export function toolTable(tools: readonly XosTool[] = XOS_TOOLS): string {
  const rows = tools.map((tool) => {
    const shape = z.object(tool.inputSchema);
    // `optin`: zod's own mark of a key that may be left out.
    const parameters = Object.entries(shape.shape).map(([name, type]) => `\`${name}\`${type._zod.optin === 'optional' ? ' (optional)' : ''}`).join(', ') || '–';
    const needs = (tool.requires ?? []).map((p) => PRECONDITION_TEXT[p]).join(', ') || '–';
    const effect = tool.annotations.readOnlyHint ? 'shows only' : `asks the person, then ${tool.requires?.includes('mailer') ? 'sends' : 'writes'}`;
    return `| \`${tool.name}\` | ${firstSentence(tool.description)} | ${parameters} | ${needs} | ${effect} |`;
  });
  return ['| tool | what it does | parameters | needs | effect |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** Puts the current table between the markers of a document; throws when the markers are missing. */
export function withToolTable(document: string): string {
  const start = document.indexOf(TOOL_TABLE_START);
  const end = document.indexOf(TOOL_TABLE_END);
  if (start < 0 || end < start) throw new Error('the tool table markers are missing');
  return `${document.slice(0, start + TOOL_TABLE_START.length)}\n${toolTable()}\n${document.slice(end)}`;
}

function firstSentence(text: string): string {
  const sentence = /^(.+?\.)(\s|$)/.exec(text)?.[1] ?? text;
  return sentence.replaceAll('|', '\\|');
}
