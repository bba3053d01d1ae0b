// The copy buttons' state: the last one pressed, and how its copy went. "Copied" shows for
// COPIED_FOR_MS; a refused copy stays until another button is pressed or the screen changes.
// It needs none of the host's lifecycle, only to make it render again.
import type { ReactiveControllerHost } from 'lit';

export type CopyResult = 'copied' | 'failed';

/** How long a copy button says "Copied". */
const COPIED_FOR_MS = 2_000;

export class CopyController {
  /** Field → how its copy went; only the last button pressed is in it. */
  results: Partial<Record<string, CopyResult>> = {};
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: ReactiveControllerHost) {}

  /** Puts `value` on the clipboard; resolves to whether the clipboard took it. */
  async copy(field: string, value: string): Promise<boolean> {
    clearTimeout(this.timer);
    let copied = true;
    try {
      await navigator.clipboard.writeText(value);
      this.timer = setTimeout(() => this.clear(), COPIED_FOR_MS);
    } catch {
      copied = false;
    }
    this.results = { [field]: copied ? 'copied' : 'failed' };
    this.host.requestUpdate();
    return copied;
  }

  /** Every button back to its label. */
  clear(): void {
    this.results = {};
    this.host.requestUpdate();
  }
}
