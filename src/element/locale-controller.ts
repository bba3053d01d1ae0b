// The language the element speaks and its strings. The language: `locale` when it is a language
// tag, else the page's language around the element, else English. The strings: English from the
// first render (the result screens' newer lines once what runs after a submit has loaded); another
// language's once its file has loaded on demand (the host re-renders then; until then the strings
// shown before stay, and a file that fails to load leaves English); the page's `messages` over
// them, key by key.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { afterSubmit, transferScreen } from './loading/for-payment.js';
import { english, loadTranslation, onDemandLocale, type Translation } from './translations.js';
import type { Messages } from './messages/index.js';

export type LocaleConfig = {
  /** The element's `locale`, as text ('' when unset). */
  locale: string;
  /** The element's `messages`: the page's own strings, over the built-in ones. */
  messages: Partial<Messages> | null | undefined;
};

/** A BCP 47 language tag such as `fr` or `fr-CI`; not `__proto__`, `constructor` or `toString`. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z\d]{2,8})*$/i;

/**
 * The `lang` of the nearest element around `node` that has one, looking out through shadow roots.
 * Lit SSR's DOM shim has no `closest` and no parents: on a server only the element's own `lang` is known.
 */
export function pageLanguage(node: Element): string {
  if (!(node as Partial<Element>).closest) return node.getAttribute('lang') ?? '';
  for (
    let element: Element | undefined = node;
    element;
    element = (element.getRootNode() as Partial<ShadowRoot>).host
  ) {
    const marked = element.closest('[lang]');
    if (marked) return marked.getAttribute('lang')!;
  }
  return '';
}

/**
 * The language to speak: `locale` when it is a language tag, else `pageLanguage` when it is one,
 * else English; and English when we have no strings in that language and the page gave none
 * (`ownMessages`). Tags only: `__proto__` and its kind are never looked up.
 */
export function wantedLocale(locale: string, pageLanguage: string, ownMessages: boolean): string {
  const wanted = [locale, pageLanguage].find((tag) => LANGUAGE_TAG.test(tag));
  if (!wanted) return 'en';
  const known = onDemandLocale(wanted) !== undefined || /^en\b/i.test(wanted);
  return known || ownMessages ? wanted : 'en';
}

export class LocaleController implements ReactiveController {
  /** The strings of this update. */
  messages: Messages = english.messages;
  /** The language they are written in, for the `lang` attribute of the rendered content and for amounts. */
  lang = 'en';

  private requested: string | undefined;
  private loaded: Translation = english;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    private readonly config: () => LocaleConfig,
  ) {
    host.addController(this);
  }

  hostUpdate(): void {
    const { locale, messages } = this.config();
    const wanted = wantedLocale(locale, pageLanguage(this.host), Object.keys(messages ?? {}).length > 0);
    const { lang, messages: strings } = this.follow(wanted);
    // English for the result screens' newer lines comes with what runs after a submit (en-after-submit.ts), the
    // transfer screen's with it (en-transfer.ts).
    this.messages = { ...afterSubmit()?.enAfterSubmit, ...transferScreen()?.enTransfer, ...strings, ...messages };
    // `fr-CI` keeps its region once French has arrived; until then the text is English and says so.
    // A language we ship no file for is the page's own, written in its `messages`.
    this.lang = !onDemandLocale(wanted) || lang === onDemandLocale(wanted) ? wanted : lang;
  }

  /** The strings loaded for `locale`, asking for them when it is new. */
  private follow(locale: string): Translation {
    if (locale !== this.requested) {
      this.requested = locale;
      const translation = loadTranslation(locale);
      if (translation instanceof Promise) {
        void translation.then((arrived) => {
          if (this.requested !== locale) return;
          this.loaded = arrived;
          this.host.requestUpdate();
        });
      } else {
        this.loaded = translation;
      }
    }
    return this.loaded;
  }
}
