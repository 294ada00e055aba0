// The written AST is for people to read and edit: a field or a short list on one line (like the
// hand-written ASTs under test/fixtures), larger objects one key per line.

const WIDTH = 140;

/** `value` as JSON text: indented by two, each object or array on one line when it fits in the width. */
export function formatJson(value: unknown): string {
  return `${format(value, '', 0)}\n`;
}

/** `start`: how far into its line the value begins (after its indent and key). */
function format(value: unknown, indent: string, start: number): string {
  const inline = oneLine(value);
  if (start + inline.length <= WIDTH || typeof value !== 'object' || value === null) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => `${inner}${format(item, inner, inner.length)}`).join(',\n')}\n${indent}]`;
  }
  const lines = Object.entries(value).filter(([, v]) => v !== undefined).map(([key, v]) => {
    const head = `${inner}${JSON.stringify(key)}: `;
    return `${head}${format(v, inner, head.length)}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

/** `{ "type": "int", "max": 3 }`: JSON with a space after each `:` and `,`. */
function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([key, v]) => `${JSON.stringify(key)}: ${oneLine(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value) ?? 'null';
}
