// `pay-widget check`: reads the command line, runs the check (src/check/runner.ts) and prints each
// result as it comes and a summary, or with `--json` the results as JSON on stdout (the progress
// then goes to stderr). Exit code 0 when every check passed, 1 when one failed, 2 for a usage error.
import { parseArgs } from 'node:util';
import { jsonReport, printable, resultLines, summaryLine } from '../check/report.js';
import { runCheck, type CheckOptions } from '../check/runner.js';
import { readBodyExtra, readHeader, readReference, UsageError } from './check-page-options.js';

export const CHECK_USAGE = `Usage: pay-widget check --session-url URL [--status-url URL] [--webhook-url URL] [--origin URL] [--json]
                        [--gateway-port PORT] [--wait SECONDS]
                        [--header 'Name: value']… [--reference REF] [--body-extra JSON]

Starts the sandbox gateway on 127.0.0.1, prints the settings your back end must use (base URL,
public key, secret key), waits until your back end reaches it, then checks your session, status and
webhook endpoints against the contract (README, "Your own back end").

  --session-url URL   your session endpoint (the widget's session-url); required
  --status-url URL    your status endpoint (status-url); its checks are skipped without it
  --webhook-url URL   your webhook endpoint, where the sandbox posts notifications
  --origin URL        the origin of the page that hosts the widget, to check CORS
  --json              the results as JSON on stdout (for CI)
  --gateway-port PORT the sandbox's port (default: any free one), so your settings can stay put
  --wait SECONDS      how long to wait for your back end to reach the sandbox (default 120)
  --help, -h          this text

What your page's requests carry besides the widget's fields, for a shop whose order needs a cart:
  --header LINE       'Name: value', sent on every session, status and webhook request the check
                      sends (not on the CORS preflight: browsers send none there); repeatable,
                      cookies joined into one Cookie header: --header 'Cookie: cart=abc'
  --reference REF     paymentReference in every session request, as your page's payment-reference:
                      the same REF in each of the ~20 payment attempts the check starts (each its
                      own Idempotency-Key). An order that checks REF and gives each attempt its own
                      reference passes; one that charges every attempt under REF (or the cart's one
                      reference) makes them one payment, and the checks that need their own fail
  --body-extra JSON   a JSON object merged into every session request body: '{"cartId":"abc"}'

Before the package is published: npx --package ./pay-widget-0.1.0.tgz pay-widget check …`;

export type Io = { out: (line: string) => void; err: (line: string) => void };

/** Runs `pay-widget check` with `args` (after `check`); resolves to the exit code. */
export async function checkCommand(args: readonly string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(CHECK_USAGE);
    return 0;
  }
  let options: CheckOptions & { json: boolean };
  try {
    options = readOptions(args);
  } catch (error) {
    if (!(error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw error;
    io.err(`pay-widget check: ${(error as Error).message}\n\n${CHECK_USAGE}`);
    return 2;
  }
  const progress = options.json ? io.err : io.out;
  try {
    const { gatewayUrl, results } = await runCheck({
      ...options,
      log: progress,
      onResult: (result) => resultLines(result).forEach((line) => progress(line)),
    });
    const setup = results.find((result) => result.name === 'setup');
    if (setup) progress(`FAIL ${printable(setup.problems[0] ?? '')}`);
    progress(summaryLine(results));
    if (options.json) io.out(jsonReport(gatewayUrl, results));
    return results.some((result) => result.status === 'fail') ? 1 : 0;
  } catch (error) {
    // The sandbox's port taken, most likely: nothing was checked.
    io.err(`pay-widget check: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

function readOptions(args: readonly string[]): CheckOptions & { json: boolean } {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      'session-url': { type: 'string' },
      'status-url': { type: 'string' },
      'webhook-url': { type: 'string' },
      origin: { type: 'string' },
      json: { type: 'boolean', default: false },
      'gateway-port': { type: 'string' },
      wait: { type: 'string' },
      header: { type: 'string', multiple: true },
      reference: { type: 'string' },
      'body-extra': { type: 'string' },
    },
  });
  if (!values['session-url']) throw new UsageError('--session-url is required');
  const options: CheckOptions & { json: boolean } = {
    sessionUrl: httpUrl('--session-url', values['session-url']),
    json: values.json ?? false,
  };
  if (values['status-url']) options.statusUrl = httpUrl('--status-url', values['status-url']);
  if (values['webhook-url']) options.webhookUrl = httpUrl('--webhook-url', values['webhook-url']);
  if (values.origin) options.origin = originOf(values.origin);
  if (values['gateway-port']) options.gatewayPort = wholeNumber('--gateway-port', values['gateway-port'], 65_535);
  if (values.wait) options.waitMs = wholeNumber('--wait', values.wait, 86_400) * 1000;
  if (values.header) options.headers = values.header.map(readHeader);
  if (values.reference !== undefined) options.reference = readReference(values.reference);
  if (values['body-extra'] !== undefined) options.bodyExtra = readBodyExtra(values['body-extra']);
  return options;
}

function httpUrl(name: string, text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol))
    throw new UsageError(
      `${name} must be an http(s) URL, like http://127.0.0.1:8000/pay/session (got ${JSON.stringify(text)})`,
    );
  return url.href;
}

function originOf(text: string): string {
  const url = new URL(httpUrl('--origin', text));
  if (url.origin !== text.replace(/\/$/, ''))
    throw new UsageError(
      `--origin must be an origin, scheme://host[:port] with no path (got ${JSON.stringify(text)}; did you mean ${url.origin}?)`,
    );
  return url.origin;
}

function wholeNumber(name: string, text: string, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > max)
    throw new UsageError(`${name} must be a whole number from 0 to ${max} (got ${JSON.stringify(text)})`);
  return value;
}
