// The script tag's second file renders its templates with the first file's Lit, through the two
// values src/element/after-submit-lit.ts stands in for: they must be what Lit itself makes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { html as litHtml, nothing as litNothing } from 'lit';
import { html, nothing } from '../../src/element/after-submit-lit.js';

describe('the Lit values of the script tag’s second file', () => {
  it('makes the template results Lit makes', () => {
    const tag = (using: typeof html) => (value: unknown) => using`<p class=${'a'}>${value}</p>`;
    const ours = tag(html)('x');
    const lits = tag(litHtml)('x');
    assert.deepEqual({ ...ours, strings: [...ours.strings] }, { ...lits, strings: [...lits.strings] });
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(lits).sort());
  });

  it('uses the same nothing', () => {
    assert.equal(nothing, litNothing);
  });
});
