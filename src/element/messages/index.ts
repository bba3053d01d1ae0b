export type { Messages } from './en.js';

/** Fills `{name}` placeholders; an unknown or undefined name is left as written. */
export function format(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}
