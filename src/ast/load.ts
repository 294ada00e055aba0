// Reading an AST from JSON or YAML text. Both go through the YAML parser (JSON
// is YAML's flow style) so every problem can point at its line and column, and
// duplicate keys, which JSON.parse would silently drop, are reported.
import { readFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode, YAMLError } from 'yaml';
import type { Ast } from './schema.ts';
import { checkAst, formatPath, formatProblem, validateAst } from './validate.ts';
import type { AstProblem, AstValidation, LocatedProblem, PathSegment } from './validate.ts';

export type AstLoadResult = AstValidation;

/** An AST that cannot be used; `problems` lists everything wrong with it. */
export class AstError extends Error {
  readonly problems: readonly AstProblem[];
  readonly source: string;

  constructor(source: string, problems: readonly AstProblem[]) {
    super(problems.map((p) => `${source}: ${formatProblem(p)}`).join('\n'));
    this.name = 'AstError';
    this.source = source;
    this.problems = problems;
  }
}

export function parseAst(text: string, fileName?: string): AstLoadResult {
  const lines = new LineCounter();
  // The JSON schema refuses bare words, so a missing quote or comma in a .json file is an error.
  const schema = fileName?.toLowerCase().endsWith('.json') ? 'json' : 'core';
  const doc = parseDocument(text, { lineCounter: lines, schema, uniqueKeys: false, prettyErrors: false });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  if (doc.errors.length > 0) {
    return { ok: false, problems: doc.errors.map((e) => ({ path: '', message: syntaxMessage(e), ...at(e.pos[0]) })) };
  }
  if (doc.contents === null) {
    return { ok: false, problems: [{ path: '', message: 'the source is empty: an XOS AST is an object with xos, app, locales, entities and contexts', line: 1, column: 1 }] };
  }
  const duplicates = duplicateKeys(doc.contents, []);
  const checked = checkAst(doc.toJS());
  if (checked.ast && duplicates.length === 0) return { ok: true, ast: checked.ast };
  const located = [...duplicates, ...checked.problems.map((p) => ({ ...p, offset: offsetOf(doc, p.segments) }))];
  const problems = located.map((p) => ({ path: formatPath(p.segments), message: p.message, ...at(p.offset) }));
  return { ok: false, problems };
}

export async function loadAstFile(path: string): Promise<Ast> {
  const result = parseAst(await readFile(path, 'utf8'), path);
  if (!result.ok) throw new AstError(path, result.problems);
  return result.ast;
}

/** For ASTs that arrive as values (e.g. over HTTP) rather than as text. */
export function astFromObject(value: unknown, source = '<object>'): Ast {
  const result = validateAst(value);
  if (!result.ok) throw new AstError(source, result.problems);
  return result.ast;
}

function syntaxMessage(error: YAMLError): string {
  if (error.code === 'MULTIPLE_DOCS') return 'syntax error: an AST is one document; remove this "---" and what follows';
  if (error.code === 'TAG_RESOLVE_FAILED') return `syntax error: ${error.message}; JSON texts need double quotes`;
  return `syntax error: ${error.message}`;
}

interface DuplicateKey extends LocatedProblem {
  readonly offset: number;
}

function duplicateKeys(node: unknown, segments: PathSegment[]): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = keyText(pair.key);
      if (seen.has(key)) out.push({ segments: [...segments, key], message: `duplicate name "${key}"`, offset: rangeStart(pair.key) ?? 0 });
      seen.add(key);
      out.push(...duplicateKeys(pair.value, [...segments, key]));
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => out.push(...duplicateKeys(item, [...segments, i])));
  }
  return out;
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/** Where the node at `segments` starts, or its nearest existing parent; map entries point at their key. */
function offsetOf(doc: Document, segments: readonly PathSegment[]): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (const segment of segments) {
    if (isMap(node)) {
      // The last duplicate wins in the loaded value, so the problem is about that one.
      const pair = node.items.findLast((p) => keyText(p.key) === String(segment));
      if (!pair) break;
      offset = rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      node = node.items[segment];
      offset = rangeStart(node) ?? offset;
    } else {
      break;
    }
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  return (node as YamlNode | null)?.range?.[0];
}
