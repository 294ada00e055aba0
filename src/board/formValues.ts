// Turning what an input holds into the value the field takes, in the webview as
// the person types. Values that do not fit stay as typed so saving can name the problem.
import type { InputKind } from './view.ts';

export function valueFromInput(input: InputKind, raw: string | boolean, integer: boolean): unknown {
  if (input === 'checkbox') return raw === true;
  const text = String(raw);
  if (input === 'number') {
    if (text.trim() === '') return null;
    // Decimals keep their exact digits as a string; integers become numbers.
    if (!integer) return text.trim();
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (input === 'select' || input === 'date' || input === 'datetime') return text === '' ? null : text;
  return text;
}
