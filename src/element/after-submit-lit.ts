// The script tag's second file (after-submit.ts) gets `lit` from here, not a second copy of Lit: its
// templates use only `html` and `nothing`, and both are plain values the first file's Lit renders.
// A template result is `{ _$litType$: 1, strings, values }` (`_$`-named members are Lit's contract
// between copies of itself) and `nothing` is the registered symbol `lit-nothing`, exactly as Lit 3
// makes them; test/node/after-submit-lit.test.ts compares them with Lit's own.
import type { html as litHtml, nothing as litNothing } from 'lit';

export const html = ((strings: TemplateStringsArray, ...values: unknown[]) => ({
  _$litType$: 1,
  strings,
  values,
})) as typeof litHtml;

export const nothing = Symbol.for('lit-nothing') as typeof litNothing;

export type { TemplateResult } from 'lit';
