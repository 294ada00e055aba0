// The AST's AI prompts as MCP prompts: `xos` with the app's global prompts, and `xos_<context>`
// for every context with its own, in the locale asked for (else the app's first). Clients show
// them as slash commands (VS Code: /mcp.xos.xos_person_list).
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { pickLocale, resolveText } from '../ast/locale.ts';
import type { Ast } from '../ast/schema.ts';
import { appName } from '../ast/appName.ts';
import { exampleQuery } from '../ast/view.ts';

export interface XosPrompt {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The prompt's text in `locale`. */
  text(locale: string | undefined): string;
}

/** Every prompt the app declares: the app's, then one per context that has prompts or can be queried. */
export function astPrompts(ast: Ast): XosPrompt[] {
  const localeOf = (requested: string | undefined) => pickLocale(requested, ast.locales);
  const texts = (list: typeof ast.prompts, locale: string) => (list ?? []).map((p) => resolveText(p, locale, ast.locales) ?? '').filter(Boolean);
  const prompts: XosPrompt[] = [{
    name: 'xos',
    title: `XOS: ${appName(ast)}`,
    description: `Work with the XOS app "${appName(ast)}": load its schema, follow its rules, show data on the Board.`,
    text: (requested) => {
      const locale = localeOf(requested);
      return [
        `You work with the XOS app "${appName(ast, locale)}". Call xos_schema first, then show data with xos_query; the person sees it on the XOS Board.`,
        'Propose changes with xos_ui_change_required and save with xos_ui_save only after the person said so; XOS asks them to confirm.',
        ...texts(ast.prompts, locale),
      ].join('\n');
    },
  }];
  for (const [name, context] of Object.entries(ast.contexts)) {
    const label = (locale: string) => resolveText(context.label, locale, ast.locales) ?? name;
    prompts.push({
      name: `xos_${name}`,
      title: `XOS: ${label(ast.locales[0])}`,
      description: `Show ${name} (${context.kind} of ${context.entity}) on the XOS Board, following the app's prompts for it.`,
      text: (requested) => {
        const locale = localeOf(requested);
        return [
          `Show "${label(locale)}" (context ${name}) on the XOS Board: call xos_schema first if you have not, then xos_query with context "${name}", for example ${exampleQuery(ast, name)}.`,
          ...texts(ast.prompts, locale),
          ...texts(context.prompts, locale),
        ].join('\n');
      },
    });
  }
  return prompts;
}

/** Per AST, its prompts and their arguments, made once: under MCP 2026-07-28 every request builds its server anew. */
const promptsOf = new WeakMap<Ast, { readonly prompts: readonly XosPrompt[]; readonly args: ReturnType<typeof promptArgs> }>();

function promptArgs(ast: Ast) {
  return z.object({ locale: z.string().max(35).optional().describe(`Language of the text: ${ast.locales.join(', ')} (default ${ast.locales[0]}).`) });
}

/** Registers the prompts on one MCP server. */
export function registerPrompts(server: McpServer, ast: Ast): void {
  let made = promptsOf.get(ast);
  if (!made) {
    made = { prompts: astPrompts(ast), args: promptArgs(ast) };
    promptsOf.set(ast, made);
  }
  for (const prompt of made.prompts) {
    server.registerPrompt(prompt.name, {
      title: prompt.title,
      description: prompt.description,
      argsSchema: made.args,
    }, ({ locale }) => ({
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.text(locale) } }],
    }));
  }
}
