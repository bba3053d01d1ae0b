// Prepares the result screens (made-up-screens.ts) while the customer fills the form (issue 26): once their files have
// arrived and the page is idle, they are drawn once beside the form, in the parent the real screen
// will have, laid out and removed in the same task, so nothing is painted. Lit has then parsed their
// templates and the browser has their styles, fonts and shaped words. The parent matters: the
// browser reuses the styles it computed under the same parent; drawn in a hidden box of their own,
// the first real screen still took 2-3 times the style work of the next (bench/FINDINGS.md, fourth
// pass).
import { render, type TemplateResult } from 'lit';
import { afterSubmitArrived, transferScreenArrived } from './loading/for-payment.js';

/**
 * `screens()`: what to draw, or undefined when it is too late (the form has gone); asked again once a transfer's screen
 * has arrived.
 */
export function warmUpResultScreens(
  root: HTMLElement | DocumentFragment,
  screens: () => TemplateResult[] | undefined,
): void {
  for (const arrived of [afterSubmitArrived, transferScreenArrived])
    void arrived.then(() =>
      whenIdle(() => {
        const drawn = screens();
        if (!drawn) return;
        // beside the form (render() in pay-widget.ts)
        const box = root.querySelector('[lang]')!.appendChild(document.createElement('div'));
        try {
          render(drawn, box);
          box.getBoundingClientRect(); // style and layout now, not after Pay
        } finally {
          box.remove(); // never left to be painted: its made-up dial code is no customer's
        }
      }),
    );
}

const whenIdle = (task: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(task, { timeout: 1_000 }) : setTimeout(task, 50);
