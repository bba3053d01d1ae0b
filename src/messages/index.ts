export type { Messages } from './en.js';
export { LocaleController } from './locale-controller.js';
export { onDemandLocale } from './load.js';

/** Fills `{name}` placeholders; an unknown name is left as written. */
export function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}
