// The widget's strings as the tests compare with them. English comes in three files (the form's,
// built in; those of what runs after a submit; the transfer screen's), which the element merges as
// each arrives; `english` is all three. `LOCALES`: English and every shipped translation, by tag.
import { enAfterSubmit } from '../src/element/messages/en-after-submit.js';
import { enTransfer } from '../src/element/messages/en-transfer.js';
import { en, type Messages } from '../src/element/messages/en.js';
import { messages as fr } from '../src/element/messages/fr.js';
import { messages as ha } from '../src/element/messages/ha.js';
import { messages as ig } from '../src/element/messages/ig.js';
import { messages as pcm } from '../src/element/messages/pcm.js';
import { messages as yo } from '../src/element/messages/yo.js';

export const english: Messages = { ...en, ...enAfterSubmit, ...enTransfer };

export const LOCALES: Record<string, Messages> = { en: english, fr, pcm, ha, yo, ig };
