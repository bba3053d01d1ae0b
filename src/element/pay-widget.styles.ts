import { css } from './css-text.js';

/**
 * Public `--pay-widget-*` properties are read once, on `:host`, into private `--_*` ones; the
 * rules below use only the private ones, so a merchant's value wins and the defaults live here.
 *
 * From the one accent a merchant sets, where relative colours work, the rest is derived so that it
 * stays readable: the accent as text and focus ring is kept dark enough on a light background
 * (light enough on a dark one), the text on it is white or black by its lightness (OKLab L 0.57,
 * where both give about 4.5:1), and its hover moves away from that text colour.
 */
export const styles = css`
  :host {
    --_font: var(--pay-widget-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_text: var(--pay-widget-color-text, #1b1f24);
    --_muted: var(--pay-widget-color-muted, #555d66);
    --_surface: var(--pay-widget-color-background, #fff);
    --_subtle: var(--pay-widget-color-subtle, #f3f5f7);
    --_border: var(--pay-widget-color-border, #8a939d);
    --_accent: var(--pay-widget-color-accent, #0a5cc2);
    --_on-accent: var(--pay-widget-color-on-accent, #fff);
    --_accent-text: var(--_accent);
    --_accent-hover: var(--_accent);
    --_accent-tint: transparent;
    --_error: var(--pay-widget-color-error, #b3261e);
    --_success: var(--pay-widget-color-success, #146c2e);
    --_radius: var(--pay-widget-radius, 10px);
    --_space: var(--pay-widget-spacing, 16px);
    --_max-width: var(--pay-widget-max-width, 440px);

    display: block;
    box-sizing: border-box;
    max-width: var(--_max-width);
    min-width: 0;
    padding: var(--_space);
    font: 16px/1.45 var(--_font);
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  /* Dark only where the page is: light-dark() follows the colour scheme the host inherits from the
     page (its root's color-scheme or <meta name="color-scheme">, with the customer's preference), or
     the one the color-scheme attribute forces. Without light-dark(), the light scheme. */
  :host([color-scheme='light']) {
    color-scheme: light;
  }
  :host([color-scheme='dark']) {
    color-scheme: dark;
  }
  @supports (color: light-dark(red, red)) {
    :host {
      --_text: var(--pay-widget-color-text, light-dark(#1b1f24,#e8eaed));
      --_muted: var(--pay-widget-color-muted, light-dark(#555d66,#b4bac2));
      --_surface: var(--pay-widget-color-background, light-dark(#fff,#16191d));
      --_subtle: var(--pay-widget-color-subtle, light-dark(#f3f5f7,#23272d));
      --_border: var(--pay-widget-color-border, light-dark(#8a939d,#6b737d));
      --_accent: var(--pay-widget-color-accent, light-dark(#0a5cc2,#8ab4f8));
      --_on-accent: var(--pay-widget-color-on-accent, light-dark(#fff,#0b1f3a));
      --_error: var(--pay-widget-color-error, light-dark(#b3261e,#f2b8b5));
      --_success: var(--pay-widget-color-success, light-dark(#146c2e,#7dd99a));
    }
  }
  @supports (color: oklch(from red l c h)) {
    :host {
      --_on-accent: var(--pay-widget-color-on-accent, oklch(from var(--_accent) clamp(0, (0.57 - l) * 999, 1) 0 0));
      --_accent-text: oklch(from var(--_accent) min(l, 0.5) c h);
      --_accent-hover: oklch(from var(--_accent) calc(l - 0.08 * clamp(-1, (0.57 - l) * 999, 1)) c h);
      --_accent-tint: oklch(from var(--_accent) l c h / 0.1);
    }
    @supports (color: light-dark(red, red)) {
      :host {
        --_accent-text: light-dark(oklch(from var(--_accent) min(l, 0.5) c h), oklch(from var(--_accent) max(l, 0.75) c h));
      }
    }
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: inherit;
  }
  form,
  section,
  fieldset {
    display: grid;
    gap: calc(var(--_space) * 0.75);
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  h2 {
    margin: 0;
    font-size: 1.2em;
    line-height: 1.3;
  }
  h2:focus {
    outline: none;
  }
  p {
    margin: 0;
  }
  legend,
  label {
    font-weight: 600;
  }
  legend {
    padding: 0;
    margin-bottom: calc(var(--_space) * 0.5);
  }
  .amount {
    font-size: 1.5em;
    font-weight: 700;
  }
  .muted,
  small {
    color: var(--_muted);
  }
  .types {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) * 0.5);
  }
  [part~='type-option'] {
    flex: 1 1 9em;
    display: flex;
    gap: 0.5em;
    align-items: flex-start;
    padding: 0.75em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    cursor: pointer;
  }
  [part~='type-option']:has(:checked) {
    border-color: var(--_accent-text);
    box-shadow: inset 0 0 0 1px var(--_accent-text);
  }
  [part~='type-option'] span {
    display: grid;
  }
  [part~='type-option'] small {
    font-weight: 400;
  }
  [part~='field'] {
    display: grid;
    gap: 0.25em;
  }
  input:not([type='radio']),
  select,
  button,
  .button {
    font: inherit;
    min-height: 44px;
    border-radius: calc(var(--_radius) * 0.6);
  }
  input:not([type='radio']),
  select {
    width: 100%;
    padding: 0.5em 0.75em;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
  }
  input[type='radio'] {
    margin: 0.2em 0 0;
    accent-color: var(--_accent);
  }
  [aria-invalid='true'] {
    border-color: var(--_error);
    box-shadow: inset 0 0 0 1px var(--_error);
  }
  [part~='error'] {
    color: var(--_error);
    font-size: 0.9em;
  }
  :focus-visible {
    outline: 3px solid var(--_accent-text);
    outline-offset: 2px;
  }
  button,
  .button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5em;
    padding: 0.5em 1em;
    color: var(--_accent-text);
    background: transparent;
    border: 1px solid currentColor;
    text-decoration: none;
    cursor: pointer;
  }
  /* One text shown, the others (generated content, unseen) in the same cell: the place is as large
     as the longest, so a copy button saying "Copied" or a status line saying more moves nothing. */
  .stack {
    display: inline-grid;
  }
  .stack > * {
    grid-area: 1/1;
  }
  [data-text]::before {
    content: attr(data-text);
    visibility: hidden;
  }
  .unseen {
    visibility: hidden;
  }
  .primary {
    color: var(--_on-accent);
    background: var(--_accent);
    border-color: var(--_accent);
    font-weight: 600;
  }
  :is(button, .button):hover {
    background: var(--_accent-tint);
  }
  .primary:hover {
    background: var(--_accent-hover);
  }
  :disabled {
    cursor: not-allowed;
    opacity: 0.7;
  }
  [aria-busy='true'] :disabled {
    cursor: progress;
  }
  .spinner {
    width: 1em;
    height: 1em;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
      border-right-color: currentColor;
      opacity: 0.5;
    }
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) * 0.5);
  }
  .actions > * {
    flex: 1 1 auto;
  }
  /* A dial code never breaks (two lines read as two codes): on a phone's narrow screen it shrinks
     with the screen instead, so that 20 characters fit in the box at 320 px. (Not with a container
     query: its extra style and layout pass cost a slow phone about 3 ms when the code first shows.)
     The transfer screen's account number and amount look the same (templates/transfer.ts). */
  [part~='dial-code'] {
    font: 700 min(1.6em, 5.5vw) / 1.2 ui-monospace, 'SF Mono', Menlo, Consolas, monospace;
    letter-spacing: 0.04em;
    user-select: all;
    white-space: nowrap;
  }
  .value {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
    align-items: center;
    justify-content: space-between;
    padding: 0.75em;
    background: var(--_subtle);
    border-radius: var(--_radius);
  }
  /* On a computer: the QR code of the dial link, with what to do with it beside it. */
  .scan {
    display: flex;
    gap: 0.75em;
    align-items: center;
  }
  .qr {
    flex: none;
    width: 7.5em;
    height: 7.5em;
    forced-color-adjust: none;
  }
  dl {
    display: grid;
    gap: 0.25em;
    margin: 0;
  }
  /* A value beside its term, or on the next line where it does not fit: never squeezed into a narrow
     column word by word. */
  dl > div {
    display: flex;
    flex-wrap: wrap;
    column-gap: 1em;
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
    margin-inline-start: auto;
    font-weight: 600;
    overflow-wrap: anywhere;
    text-align: end;
  }
  [part~='status'] {
    display: flex;
    gap: 0.5em;
    align-items: baseline;
    color: var(--_muted);
  }
  .SUCCESS h2 {
    color: var(--_success);
  }
  .FAILED h2,
  .error h2 {
    color: var(--_error);
  }
  /* Windows high contrast drops shadows and background colours: keep the marks they carried. */
  @media (forced-colors: active) {
    [part~='type-option']:has(:checked),
    [aria-invalid='true'] {
      outline: 2px solid Highlight;
    }
    .value {
      border: 1px solid CanvasText;
    }
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  /* The transfer screen's rules (issue 18). */
  section > ul {
    margin: 0;
    padding-inline-start: 1.25em;
  }
`;
