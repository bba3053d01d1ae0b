// Which hosts count as this machine (src/contract/loopback.ts): the sandbox's "the customer paid"
// and the demo answer a Host header naming this machine only (DNS rebinding is refused), and
// createPayments refuses a publicUrl the live gateway could never reach.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLocalOnlyHostname, isLoopbackAddress, isLoopbackHost } from '../../src/contract/loopback.js';

/** One test per row: `check(input)` is `expected`, named by what the answer means. */
function rows(check: (input: string) => boolean, table: [string, boolean][], means: [string, string]): void {
  for (const [input, expected] of table) {
    it(`${JSON.stringify(input)}: ${expected ? means[0] : means[1]}`, () => assert.equal(check(input), expected));
  }
}

describe('isLoopbackHost: a Host header naming this machine, on any port', () => {
  const table: [string, boolean][] = [
    ['localhost', true],
    ['LocalHost:5173', true],
    ['127.0.0.1', true],
    ['127.8.9.10:80', true],
    ['[::1]', true],
    ['[::1]:8080', true],
    ['0.0.0.0', false],
    ['0.0.0.0:3000', false],
    ['shop.localhost', false],
    ['localhost.evil.example', false],
    ['127.0.0.1.nip.io', false],
    ['evil.example:80', false],
    ['128.0.0.1', false],
    ['::1', false],
    ['localhost:', false],
    ['localhost:80:90', false],
    ['', false],
  ];
  rows(isLoopbackHost, table, ['this machine', 'elsewhere']);
});

describe('isLocalOnlyHostname: a publicUrl hostname only this machine can reach', () => {
  const table: [string, boolean][] = [
    [new URL('http://localhost:3000/pay').hostname, true],
    [new URL('http://127.0.0.1/pay').hostname, true],
    [new URL('http://127.1/pay').hostname, true],
    [new URL('http://[::1]:3000/pay').hostname, true],
    [new URL('http://0.0.0.0:3000/pay').hostname, true],
    [new URL('http://shop.localhost/pay').hostname, true],
    [new URL('http://SHOP.LOCALHOST/pay').hostname, true],
    [new URL('https://shop.example/pay').hostname, false],
    [new URL('https://localhost.shop.example/pay').hostname, false],
    [new URL('https://notlocalhost/pay').hostname, false],
    [new URL('http://192.168.1.20/pay').hostname, false],
  ];
  rows(isLocalOnlyHostname, table, ['refused with live keys', 'reachable']);
});

describe('isLoopbackAddress: a socket peer on this machine', () => {
  const table: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.4.5.6', true],
    ['::ffff:127.0.0.1', true],
    ['::1', true],
    ['::ffff:10.0.0.1', false],
    ['203.0.113.9', false],
    ['0.0.0.0', false],
    ['::', false],
    ['[::1]', false],
    ['localhost', false],
  ];
  rows(isLoopbackAddress, table, ['this machine', 'elsewhere']);
});
