// The QR code a computer shows beside the dial code: its module is loaded the first time one is
// asked for, and the host renders again once it is there (the screen keeps its place meanwhile).
// A failed load is not tried again (a browser keeps a failed module import's answer for its
// address): the code is still there to copy.
import type { ReactiveControllerHost } from 'lit';
import { importQrCode } from './import-qr-code.js';
import type { QrImage } from './qr-code.js';

export class QrController {
  private module: Awaited<ReturnType<typeof importQrCode>> | undefined;
  private loading: Promise<void> | undefined;
  private last: { text: string; image: QrImage } | undefined;

  constructor(private readonly host: ReactiveControllerHost) {}

  /** The QR code of `text`, or undefined while its module loads (which this starts). */
  image(text: string): QrImage | undefined {
    if (!this.module) return void this.load();
    if (this.last?.text !== text) this.last = { text, image: this.module.qrCode(text) };
    return this.last.image;
  }

  private load(): void {
    this.loading ??= importQrCode().then(
      (module) => {
        this.module = module;
        this.host.requestUpdate();
      },
      () => {},
    );
  }
}
