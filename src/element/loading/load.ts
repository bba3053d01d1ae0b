// The one loader of every file the element loads after the form (later-files.ts): what runs after a
// submit, the transfer screen, the QR code, each language. Once for the page: one cache, each file
// loaded once, a load under way shared. A failed load is forgotten and the next call tries again,
// from a new address beside the script tag (a browser may keep a failed import's answer for its
// address). A file the shop's server does not have (a 4xx, or its HTML page in place of the script:
// the script tag copied alone), or a script that cannot know where its files are (inlined, no
// `data-files-url`), is the shop's set-up, not the customer's connection: the failure carries code
// `setup`, and the console says so once for the merchant.
import { addressOf, importEntry } from './import-entry.js';
import type { LaterFile, LaterFiles } from './later-files.js';

/** A failed load; `code: 'setup'` when trying again cannot help. */
export type LoadFailure = Error & { code?: 'setup' };

type File<M> = {
  module?: M;
  loading?: Promise<M>;
  /** Loads tried so far. */
  attempts: number;
  /** Resolves once the file has loaded (it never starts the load). */
  arrived: Promise<M>;
  arrive: (module: M) => void;
};

const files = new Map<LaterFile, File<unknown>>();

function file<N extends LaterFile>(name: N): File<LaterFiles[N]> {
  let known = files.get(name) as File<LaterFiles[N]> | undefined;
  if (!known) {
    let arrive!: (module: LaterFiles[N]) => void;
    const arrived = new Promise<LaterFiles[N]>((resolve) => (arrive = resolve));
    known = { attempts: 0, arrived, arrive };
    files.set(name, known as File<unknown>);
  }
  return known;
}

/** The file `name`, once it has loaded. */
export const loaded = <N extends LaterFile>(name: N): LaterFiles[N] | undefined => file(name).module;

/** Resolves once `name` has loaded (it never starts the load). */
export const arrived = <N extends LaterFile>(name: N): Promise<LaterFiles[N]> => file(name).arrived;

/** Loads `name` unless it has loaded or a load is under way; rejects with a LoadFailure. */
export function load<N extends LaterFile>(name: N): Promise<LaterFiles[N]> {
  const known = file(name);
  if (known.module) return Promise.resolve(known.module);
  if (known.loading) return known.loading;
  // A new address for each load after a failure: a browser may keep a failed import's answer for its address.
  const attempt = known.attempts++;
  return (known.loading = importEntry(name, attempt).then(
    (module) => {
      known.module = module;
      known.arrive(module);
      return module;
    },
    async (error: LoadFailure) => {
      forget(name);
      throw await diagnosed(name, addressOf(name, attempt), error);
    },
  ));
}

/** Forgets the load of `name` under way (one that hangs), so that the next call asks afresh. */
export function forget(name: LaterFile): void {
  file(name).loading = undefined;
}

/** The files the console was told of: each load tried again would tell it again. */
const told = new Set<LaterFile>();

/** `error`, with code `setup` when the address `url` of `name` answers with something that is not a script. */
async function diagnosed(name: LaterFile, url: string | undefined, error: LoadFailure): Promise<LoadFailure> {
  if (error.code || !url) return error;
  // Asked again (the server's answer now, not a cached one), to tell a file the server does not have (4xx, or a
  // page that is not a script) from no answer at all.
  const answer = await fetch(url, { cache: 'no-store' }).catch(() => undefined);
  if (answer && answer.status < 500 && !/script/.test(answer.headers.get('content-type') ?? '')) {
    if (!told.has(name)) console.error(`pay-widget: ${url} answered ${answer.status}: serve all of dist/`);
    told.add(name);
    error.code = 'setup';
  }
  return error;
}
