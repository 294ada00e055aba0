// Picking one text out of a localized map. Tags compare case-insensitively
// because VS Code reports display languages in lower case (`de-at`, `en-us`).
import type { LocalizedText } from './schema.ts';

function languageOf(tag: string): string {
  return tag.split('-')[0].toLowerCase();
}

function findTag(candidates: readonly string[], wanted: string): string | undefined {
  const lower = wanted.toLowerCase();
  return candidates.find((c) => c.toLowerCase() === lower)
    ?? candidates.find((c) => c.toLowerCase() === languageOf(wanted))
    ?? candidates.find((c) => languageOf(c) === languageOf(wanted));
}

/**
 * Exact tag, then its language (`de-AT` -> `de`) or a sibling region (`de-CH` -> `de-AT`),
 * then the first locale, then any text.
 */
export function resolveText(text: LocalizedText | undefined, locale: string, locales: readonly string[]): string | undefined {
  if (text === undefined || typeof text === 'string') return text;
  const keys = Object.keys(text);
  const key = findTag(keys, locale) ?? (locales.length > 0 ? findTag(keys, locales[0]) : undefined) ?? keys[0];
  return key === undefined ? undefined : text[key];
}

/** The supported locale closest to `requested`; the first (default) locale when none fits. */
export function pickLocale(requested: string | undefined, locales: readonly string[]): string {
  const found = requested ? findTag(locales, requested) : undefined;
  return found ?? locales[0];
}
