// Names and labels for a database's own identifiers: `InvoiceLine` becomes the entity
// `invoice_line` labelled "Invoice line", `Straße` the entity `strasse`. AST names are GraphQL
// names (ASCII letters, digits, _), so letters beyond ASCII are spelt out or lose their accents.

// Letters whose usual ASCII spelling is not their base letter (NFKD gives ä -> a, but German writes ae).
const SPELT_OUT: Record<string, string> = {
  ß: 'ss', ä: 'ae', ö: 'oe', ü: 'ue', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i',
};

/** `InvoiceLine` -> `invoice_line`, `HTTPServer` -> `http_server`, `Größe` -> `groesse`; '' when nothing is left. */
export function snakeAscii(identifier: string): string {
  const words = splitCamel(identifier).toLowerCase();
  const spelt = [...words].map((c) => SPELT_OUT[c] ?? c).join('');
  return spelt.normalize('NFKD').replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Word breaks where the case changes: `InvoiceLine` -> `Invoice_Line`, `HTTPServer` -> `HTTP_Server`. */
function splitCamel(identifier: string): string {
  return identifier
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1_$2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1_$2');
}

/** "Invoice line" from `InvoiceLine`, "First name" from `first_name`, "Support rep ID" from `SupportRepId`. */
export function readable(identifier: string): string {
  // An identifier in capitals throughout (`ORDER_STATUS`) is no run of acronyms.
  const source = /\p{Ll}/u.test(identifier) ? identifier : identifier.toLowerCase();
  const words = splitCamel(source).split(/[\s_\-.]+/).filter((w) => w !== '');
  if (words.length === 0) return identifier;
  return words.map((word, i) => {
    if (word.toLowerCase() === 'id') return 'ID';
    const acronym = word.length > 1 && word === word.toUpperCase() && /\p{Lu}/u.test(word);
    const lower = acronym ? word : word.toLowerCase();
    return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
  }).join(' ');
}

/**
 * English plural of a snake_case name's last word: `invoice_line` -> `invoice_lines`,
 * `company` -> `companies`, `status` -> `statuses`; a word that looks plural already
 * (`settings`, `sales`) stays as it is.
 */
export function plural(name: string): string {
  if (/(ss|us|is|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  if (/s$/i.test(name)) return name;
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

/** "Invoice lines" from `InvoiceLine`; a name in another language than English (`Straße`) or ending in an acronym stays singular. */
export function readablePlural(identifier: string): string {
  const label = readable(identifier);
  return /^[\x20-\x7e]*[a-z]$/.test(label) ? plural(label) : label;
}
