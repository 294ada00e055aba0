// The scripted model's brain, free of VS Code: given the script, the current turn (the user's
// prompt and the tool results since) and the tools the request offers, pick the next reply.

/** One step: call a tool (matched by suffix against `mcp_<server>_<tool>`), or say a final text. */
export type ScriptStep =
  | { readonly tool: string; readonly input?: Record<string, unknown> }
  | { readonly say: string };

/** Steps keyed by (a part of) the user prompt. */
export type Script = Readonly<Record<string, readonly ScriptStep[]>>;

export interface Turn {
  /** Text of the last real user message (the chat wraps the prompt in context; keys match inside it). */
  readonly prompt: string;
  /** Text of each tool result since that message, oldest first. */
  readonly toolResults: readonly string[];
}

export type Reply =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool'; readonly name: string; readonly input: Record<string, unknown> };

/** What a request without tools (a title or other utility request) gets. */
export const UTILITY_REPLY = 'XOS scripted reply';

/** What the person typed: the chat wraps it in `<userRequest>` inside a long context message. */
export function userRequest(prompt: string): string {
  const wrapped = [...prompt.matchAll(/<userRequest>([\s\S]*?)<\/userRequest>/g)].at(-1)?.[1];
  return (wrapped ?? prompt).trim();
}

/** The script entry whose key occurs in the user's request; the longest key wins. */
export function findSteps(script: Script, prompt: string): { key: string; steps: readonly ScriptStep[] } | undefined {
  const request = userRequest(prompt);
  const keys = Object.keys(script).filter((key) => request.includes(key)).sort((a, b) => b.length - a.length);
  return keys.length ? { key: keys[0], steps: script[keys[0]] } : undefined;
}

/** The offered tool named `tool` or ending in `_<tool>`. */
export function resolveTool(tool: string, offered: readonly string[]): string | undefined {
  return offered.find((name) => name === tool) ?? offered.find((name) => name.endsWith(`_${tool}`));
}

export function nextReply(script: Script, turn: Turn, offeredTools: readonly string[]): Reply {
  if (offeredTools.length === 0) return { kind: 'text', text: UTILITY_REPLY };
  const entry = findSteps(script, turn.prompt);
  if (!entry) return { kind: 'text', text: `The script has no steps for this prompt (keys: ${Object.keys(script).join(', ') || 'none'}).` };
  // Every tool step before the current one has produced exactly one result.
  let results = 0;
  for (const step of entry.steps) {
    if ('say' in step) {
      const lastResult = turn.toolResults.at(-1) ?? '';
      return { kind: 'text', text: step.say.replaceAll('{{lastResult}}', lastResult) };
    }
    if (results < turn.toolResults.length) {
      results++;
      continue;
    }
    const name = resolveTool(step.tool, offeredTools);
    if (!name) return { kind: 'text', text: `The script calls ${step.tool}, but the request offers only: ${offeredTools.join(', ')}.` };
    return { kind: 'tool', name, input: step.input ?? {} };
  }
  return { kind: 'text', text: 'The script ends here.' };
}
