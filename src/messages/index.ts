import { en, type Messages } from './en.js';
import { fr } from './fr.js';

export type { Messages };

const builtIn: Record<string, Messages> = { en, fr };

/** The built-in strings for a locale such as `fr` or `fr-CI`, falling back to English. */
export function messagesFor(locale: string): Messages {
  return builtIn[locale.toLowerCase().split('-')[0] ?? ''] ?? en;
}

/** Fills `{name}` placeholders; an unknown name is left as written. */
export function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}
