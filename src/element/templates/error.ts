// The failure screen: what went wrong, the server's own words and field messages, and the ways on.
import { html, nothing, type TemplateResult } from 'lit';
import type { PayFailure } from '../flow.js';
import type { Messages } from '../messages/index.js';

/** The ways on: try the same attempt again, or back to the form. */
export type ErrorActions = { retry(): void; edit(): void };

/** The failure in the widget's words: its own for a server code it knows, else for the kind of failure. */
export const failureText = (m: Messages, { says, code }: PayFailure): string => m[says ?? `error-${code}`];

export function errorTemplate(m: Messages, failure: PayFailure, actions: ErrorActions): TemplateResult {
  return html`<section part="result" class="error">
    <h2 tabindex="-1">${m.errorTitle}</h2>
    <p>${failureText(m, failure)}</p>
    ${failure.message && !failure.says ? html`<p class="muted">${failure.message}</p>` : nothing}
    ${
      failure.fields
        ? html`<ul>
          ${Object.values(failure.fields).map((message) => html`<li>${message}</li>`)}
        </ul>`
        : nothing
    }
    <div class="actions">
      ${
        failure.retryable
          ? html`<button class="primary" type="button" @click=${() => actions.retry()}>${m.retry}</button>`
          : nothing
      }
      <button type="button" @click=${() => actions.edit()}>${m.edit}</button>
    </div>
  </section>`;
}
