// vCard 3.0 / 4.0 parsing of what a contact search needs: FN, N, every EMAIL
// and TEL, ORG, UID. Lines are unfolded, groups and parameters skipped,
// escapes decoded; anything else in the card is ignored.

export interface VCardContact {
  readonly uid?: string;
  readonly name: string;
  readonly emails: readonly string[];
  readonly phones: readonly string[];
  readonly organization?: string;
}

interface Property {
  readonly name: string;
  readonly params: Readonly<Record<string, string>>;
  readonly value: string;
}

/** The contacts in `text` (one or more BEGIN:VCARD blocks). */
export function parseVCards(text: string): VCardContact[] {
  const cards: VCardContact[] = [];
  let current: Property[] | undefined;
  for (const line of unfold(text)) {
    const property = parseLine(line);
    if (!property) continue;
    if (property.name === 'BEGIN' && property.value.toUpperCase() === 'VCARD') current = [];
    else if (property.name === 'END' && property.value.toUpperCase() === 'VCARD') {
      if (current) cards.push(toContact(current));
      current = undefined;
    } else current?.push(property);
  }
  return cards;
}

function toContact(properties: readonly Property[]): VCardContact {
  const values = (name: string) => properties.filter((p) => p.name === name);
  const first = (name: string) => values(name)[0];
  const byPreference = (list: Property[]) => [...list].sort((a, b) => preference(a) - preference(b));
  const emails = unique(byPreference(values('EMAIL')).map((p) => unescape(p.value).trim()).filter(Boolean));
  const phones = unique(byPreference(values('TEL')).map((p) => unescape(p.value).trim().replace(/^tel:/i, '')).filter(Boolean));
  const organization = first('ORG') ? components(first('ORG')!.value)[0]?.trim() || undefined : undefined;
  const name = unescape(first('FN')?.value ?? '').trim() || nameFromN(first('N')?.value) || organization || emails[0] || '';
  const uid = first('UID') ? unescape(first('UID')!.value).trim() : undefined;
  return { ...(uid ? { uid } : {}), name, emails, phones, ...(organization ? { organization } : {}) };
}

/** vCard 4 PREF=1..100, vCard 3 TYPE=pref; lower comes first, unmarked last. */
function preference(property: Property): number {
  const pref = Number(property.params.PREF);
  if (Number.isInteger(pref) && pref > 0) return pref;
  if ((property.params.TYPE ?? '').toLowerCase().split(',').includes('pref')) return 1;
  return 101;
}

function nameFromN(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const [family, given, additional, prefix, suffix] = components(value).map((c) => c.trim());
  return [prefix, given, additional, family, suffix].filter(Boolean).join(' ') || undefined;
}

function unfold(text: string): string[] {
  return text.replace(/\r\n|\r/g, '\n').replace(/\n[ \t]/g, '').split('\n');
}

function parseLine(line: string): Property | undefined {
  // The value starts at the first colon outside a quoted parameter value.
  let quoted = false;
  let colon = -1;
  for (let i = 0; i < line.length; i += 1) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ':' && !quoted) {
      colon = i;
      break;
    }
  }
  if (colon < 0) return undefined;
  const [rawName, ...rawParams] = line.slice(0, colon).split(';');
  const name = rawName.slice(rawName.lastIndexOf('.') + 1).toUpperCase();
  const params: Record<string, string> = {};
  for (const param of rawParams) {
    const eq = param.indexOf('=');
    // vCard 2.1-style bare parameters (";PREF") are types.
    const key = eq < 0 ? 'TYPE' : param.slice(0, eq).toUpperCase();
    const value = (eq < 0 ? param : param.slice(eq + 1)).replace(/^"(.*)"$/, '$1');
    params[key] = params[key] ? `${params[key]},${value}` : value;
  }
  return { name, params, value: line.slice(colon + 1) };
}

/** Splits a structured value at unescaped semicolons, decoding each part. */
function components(value: string): string[] {
  return value.split(/(?<!\\);/).map(unescape);
}

function unescape(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
