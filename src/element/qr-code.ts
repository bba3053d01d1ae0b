// The QR code of a dial code's `tel:` link, for a computer (a phone's camera opens its dialer from
// it). Loaded only on that path: a chunk of its own in the npm build, a file beside the script tag
// (`QR_CODE_FILE`). lean-qr encodes it (about 3.7 KB gzip, no dependencies): its automatic modes
// write `tel:` as ISO 8859-1 bytes with no ECI header (which some phones' scanners cannot read; its
// "nano" build always adds one) and the dial code as alphanumerics, so the code is small and coarse.
import { generate } from 'lean-qr';
import { html, type TemplateResult } from 'lit';

/**
 * The QR code of `text`, dark on light with its quiet zone of 4 modules, filling its box (`.qr`,
 * which ussd.ts draws blank until this file has come, so that nothing moves): one SVG path of unit
 * squares. One template from `<svg>` in: Lit's `html` parses a nested template's `<path>` as HTML.
 */
export function qrCode(text: string): TemplateResult {
  const code = generate(text);
  let path = '';
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) {
      let run = 0;
      while (code.get(x + run, y)) run++; // `get` is false past the edge
      if (run) path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run;
    }
  }
  const side = code.size + 8;
  return html`<svg class="qr" aria-hidden="true" viewBox="-4 -4 ${side} ${side}">
    <rect x="-4" y="-4" width="100%" height="100%" fill="#fff"></rect>
    <path d=${path}></path>
  </svg>`;
}
