// Prepares the result screens while the customer fills the form (issue 26): once their files have
// arrived and the page is idle, they are drawn once, unseen, at the width they will have, laid out,
// and removed, in one task (nothing is painted). Lit has then parsed their templates (once a page)
// and the browser has their styles, fonts and shaped words, so the first real one after Pay costs a
// slow phone about half the main thread it did (its layout alone, about half again of what a
// 1-pixel box left to do).
import { render, type TemplateResult } from 'lit';
import { afterSubmitArrived, transferScreenArrived } from './load-on-demand.js';

/** `screens()`: what to draw, or undefined when it is too late (the form has gone); asked again once a transfer's screen has arrived. */
export function warmUpResultScreens(root: HTMLElement | DocumentFragment, screens: () => TemplateResult[] | undefined): void {
  for (const arrived of [afterSubmitArrived, transferScreenArrived]) void arrived.then(() => whenIdle(() => {
    const drawn = screens();
    if (!drawn) return;
    const box = root.appendChild(document.createElement('div'));
    box.className = 'unseen';
    render(drawn, box);
    box.getBoundingClientRect(); // style and layout now, not after Pay
    box.remove();
  }));
}

const whenIdle = (task: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(task, { timeout: 1_000 }) : setTimeout(task, 50));
