// The QR code a computer shows beside the dial code: its module is loaded the first time one is
// asked for, and the host renders again once it is there (the screen keeps its place meanwhile).
// A failed load is not tried again (a browser keeps a failed module import's answer for its
// address): the code is still there to copy.
import type { ReactiveControllerHost, TemplateResult } from 'lit';
import { importQrCode } from './import-qr-code.js';

export class QrController {
  private module: Awaited<ReturnType<typeof importQrCode>> | undefined;
  private asked = false;

  constructor(private readonly host: ReactiveControllerHost) {}

  /** The QR code of `text` (qr-code.ts), or undefined while its module loads (which this starts). */
  image(text: string): TemplateResult | undefined {
    if (!this.asked) {
      this.asked = true;
      importQrCode().then(
        (module) => {
          this.module = module;
          this.host.requestUpdate();
        },
        () => {},
      );
    }
    // Encoded at each render (once a second while the screen waits): a short link takes well under a millisecond.
    return this.module?.qrCode(text);
  }
}
