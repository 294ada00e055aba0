// Normal forms that make the same person from two sources recognisable:
// lower-case addresses and E.164 phone numbers where the country is known.
import { domainToASCII } from 'node:url';

/** Calling codes of the countries a national number ("0171 …") may be read in. */
const CALLING_CODES: Readonly<Record<string, string>> = {
  AT: '43', BE: '32', CH: '41', DE: '49', DK: '45', ES: '34', FR: '33', GB: '44', IE: '353',
  IT: '39', LU: '352', NL: '31', NO: '47', PL: '48', PT: '351', SE: '46', US: '1', CA: '1',
};

export function normalizeEmail(email: string): string {
  const trimmed = email.trim().replace(/^mailto:/i, '');
  const at = trimmed.lastIndexOf('@');
  if (at < 0) return trimmed.toLowerCase();
  const domain = domainToASCII(trimmed.slice(at + 1).toLowerCase()) || trimmed.slice(at + 1).toLowerCase();
  return `${trimmed.slice(0, at).toLowerCase()}@${domain}`;
}

/**
 * "+49 171 1234567", "0049 171 …" and, with country "DE", "0171 1234567" all
 * become "+491711234567". A national number without a known country is kept as written.
 */
export function normalizePhone(phone: string, country?: string): string {
  const written = phone.trim().replace(/^tel:/i, '');
  const digits = written.replace(/[^\d]/g, '');
  if (written.startsWith('+') && digits.length >= 7) return `+${digits}`;
  if (digits.startsWith('00') && digits.length >= 9) return `+${digits.slice(2)}`;
  const code = country ? CALLING_CODES[country.toUpperCase()] : undefined;
  if (code && digits.length >= 6) {
    if (code === '1' && digits.length === 10) return `+1${digits}`;
    if (digits.startsWith('0')) return `+${code}${digits.slice(1)}`;
  }
  return written;
}

/** The country of a locale such as "de-DE" or "en-US", if it names one. */
export function countryOfLocale(locale: string | undefined): string | undefined {
  const region = locale?.split(/[-_]/)[1];
  return region && /^[A-Za-z]{2}$/.test(region) ? region.toUpperCase() : undefined;
}
