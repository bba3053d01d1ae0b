import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { english, loadTranslation, type Translation } from './load.js';

/**
 * The strings of the host's locale. English is there from the first render; another locale is
 * loaded on demand and the host re-renders when it arrives (until then the strings shown before
 * stay). A locale that fails to load leaves English.
 */
export class LocaleController implements ReactiveController {
  private requested: string | undefined;
  private shown: Translation = english;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly locale: () => string,
  ) {
    host.addController(this);
  }

  /** The strings to render. */
  get messages() {
    return this.follow().messages;
  }

  /** The language they are written in, for the `lang` attribute of the rendered content. */
  get lang(): string {
    return this.follow().lang;
  }

  hostUpdate(): void {
    this.follow();
  }

  private follow(): Translation {
    const locale = this.locale();
    if (locale !== this.requested) {
      this.requested = locale;
      const translation = loadTranslation(locale);
      if (translation instanceof Promise) {
        void translation.then((arrived) => {
          if (this.requested !== locale) return;
          this.shown = arrived;
          this.host.requestUpdate();
        });
      } else {
        this.shown = translation;
      }
    }
    return this.shown;
  }
}
