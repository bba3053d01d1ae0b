// A payment reference as the screens show it, wrapping between its groups.
import { html, type TemplateResult } from 'lit';

/**
 * A reference with a line-break opportunity after every four letters or digits and their
 * separators (`pw-3f9a0c1d…` → `pw-`, `3f9a`, `0c1d`, …), so that it wraps between groups, never
 * inside one. Its text, and what a selection copies, stay the same.
 */
export function grouped(reference: string): TemplateResult[] {
  return reference.match(/[^\W_]{1,4}[\W_]*|[\W_]+/g)!.map((group) => html`${group}<wbr />`);
}
