// What every check shares: the context it runs in, how it reports, and the shape of its result.
import type { MerchantClient } from './merchant.js';
import type { ObservedSandbox } from './observed-sandbox.js';

export type CheckContext = {
  merchant: MerchantClient;
  gateway: ObservedSandbox;
  /** `--origin`: the page's origin the endpoints must allow (CORS). */
  origin: string | undefined;
};

/** What a check tells the runner as it goes. */
export type CheckReport = {
  /** A problem: the check fails, with this as what to fix. */
  fail(whatToFix: string): void;
  /** Something worth knowing that is not a failure. */
  note(text: string): void;
};

/** Thrown by a check that cannot run here (an endpoint not given); it is reported, not failed. */
export class SkipCheck extends Error {}

export type Check = {
  /** Stable, for `--json` and tests: `session-replay`. */
  name: string;
  /** What it proves, one line. */
  title: string;
  run(context: CheckContext, report: CheckReport): Promise<void>;
};

export type CheckResult = {
  name: string;
  title: string;
  status: 'ok' | 'fail' | 'skip';
  problems: string[];
  notes: string[];
};
