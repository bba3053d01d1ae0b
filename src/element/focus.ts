// Where the focus goes once another screen or the form's errors show: the result's heading, the
// first invalid field, or the form's first control (the chosen payment type).

export type FocusTarget = 'heading' | 'invalid' | 'first';

const FIRST = 'input:checked, input:not([type=radio])';
const SELECTORS: Record<FocusTarget, string> = { heading: 'h2', invalid: '[aria-invalid="true"]', first: FIRST };

/** Follows the customer, but never pulls focus away from the page when the page itself called reset(). */
export function moveFocus(host: HTMLElement, root: ParentNode, target: FocusTarget): void {
  const active = document.activeElement;
  if (active && active !== document.body && !host.contains(active) && active !== host) return;
  (root.querySelector<HTMLElement>(SELECTORS[target]) ?? root.querySelector<HTMLElement>(FIRST))?.focus();
}
