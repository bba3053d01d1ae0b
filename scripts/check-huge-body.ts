/**
 * The peak memory of `pay-widget check` while its sandbox gateway is sent one enormous request body
 * (issue 35, finding 8). Starts the command in a child process, POSTs `--mb` megabytes (default 1536)
 * of made-up bytes to the sandbox's initiation path, made 64 KB at a time as the socket takes them,
 * and prints the answer and the child's peak RSS (VmHWM, Linux) before and after.
 *
 *   node --import tsx scripts/check-huge-body.ts [--mb 1536]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { freePort } from '../test/node/loopback.js';
import { SANDBOX_ACCESS_TOKEN } from '../src/sandbox/index.js';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '1536' } } });
const total = Number(values.mb) * 1024 * 1024;
const CHUNK = 64 * 1024;

const port = await freePort();
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'src/cli/pay-widget.ts',
    'check',
    '--session-url',
    'http://127.0.0.1:9/never',
    '--gateway-port',
    String(port),
    '--wait',
    '600',
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
await new Promise<void>((resolve) =>
  child.stdout!.on('data', (text: Buffer) => String(text).includes('listens at') && resolve()),
);

const peakMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
const before = peakMb();

const answer = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
  let sent = 0;
  const upload = request(`http://127.0.0.1:${port}/api/v2/payments/initiates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_ACCESS_TOKEN}` },
  });
  upload.on('error', () => {}); // the sandbox closes the connection on the rest
  upload.on('response', (response) => {
    let body = '';
    response.on('data', (text: Buffer) => (body += text));
    response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sent }));
    response.on('error', reject);
  });
  const more = () => {
    while (sent < total && !upload.destroyed) {
      sent += CHUNK;
      if (!upload.write(Buffer.alloc(CHUNK, 0x78))) return void upload.once('drain', more);
    }
    if (!upload.destroyed) upload.end();
  };
  more();
});

console.log(
  `${values.mb} MB offered, ${(answer.sent / 1024 / 1024).toFixed(1)} MB written to the socket before the answer`,
);
console.log(`answer: HTTP ${answer.status} ${answer.body}`);
console.log(`peak RSS of pay-widget check: ${before.toFixed(0)} MB before, ${peakMb().toFixed(0)} MB after`);
child.kill();
