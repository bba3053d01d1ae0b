// The QR code a computer shows beside the dial code: its module is loaded the first time one is
// asked for, and the host renders again once it is there (the screen keeps its place meanwhile).
// A load that got no answer is tried again at the next render (once a second while the screen
// waits); a file the shop does not serve (`setup`) is not: the code is still there to copy.
import type { ReactiveControllerHost, TemplateResult } from 'lit';
import type * as QrModule from './qr-code.js';

export class QrController {
  private module: typeof QrModule | undefined;
  /** Why the last load failed (loading/load.ts: `setup` when trying again cannot help). */
  private failed: { code?: string } | undefined;

  /** `loadQrCode`: the first file's loader of the QR code's file (loading/load.ts). */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly loadQrCode: () => Promise<typeof QrModule>,
  ) {}

  /** The QR code of `text` (qr-code.ts), or undefined while its module loads (which this starts). */
  image(text: string): TemplateResult | undefined {
    // A load under way is shared (loading/load.ts): asking again at each render sends nothing more.
    if (!this.module && this.failed?.code !== 'setup') {
      this.loadQrCode().then(
        (module) => {
          this.module = module;
          this.host.requestUpdate();
        },
        (error: { code?: string }) => (this.failed = error),
      );
    }
    // Encoded at each render (once a second while the screen waits): a short link takes well under a millisecond.
    return this.module?.qrCode(text);
  }
}
