// The look for a kept attempt, once before a widget's first render: when its page's widget kept one
// (and storage can be read), what shows it again (resume.ts, a file of its own: loading/entries/resume.ts)
// is loaded with what runs after a submit, whose screens it shows; the form shows meanwhile. Cheap
// when there is none: nothing is loaded for it.
import { loadAfterSubmit, loadTransferScreen } from './loading/for-payment.js';
import { load } from './loading/load.js';
import type { Resumable } from './resume.js';

/** `keptName`: where the attempt would be kept, undefined when nothing is (`resume="off"`). */
export function recallKept(payment: Resumable, keptName: () => string | undefined): void {
  let name: string | undefined;
  try {
    name = keptName();
    if (!name || !sessionStorage.getItem(name)) return;
  } catch {
    return; // storage refused (or no page, on a server): no resume
  }
  void Promise.all([load('resume'), loadAfterSubmit()]).then(
    ([resume]) => resume.resumeKept(payment, name, loadTransferScreen),
    () => {},
  );
}
