#!/usr/bin/env node
/**
 * Finds a Chrome or Chromium binary for the browser tests and the demo's end-to-end test.
 *
 *   import { findChromium } from './scripts/ensure-chromium.mjs';
 *   const executablePath = findChromium(); // string, or undefined when none is installed
 *
 * Run as a script (`node scripts/ensure-chromium.mjs`, which `npm test` runs before any test that needs a browser) it
 * prints the path it found. When there is none and we are root on Debian/Ubuntu (a CI container),
 * it installs the `chromium` package with apt-get and looks again; otherwise it exits 1 with one line
 * saying what to install or to set CHROME_PATH. Nothing here downloads a browser from the web:
 * tools that fetch their own Chrome (puppeteer's, playwright's) cannot work offline.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensureProgram, isExecutable, onPath, runWhenMain } from './system-program.mjs';

/**
 * How every test and the bench start it: headless, as root in a container, and quiet on a machine
 * whose only network is 127.0.0.1 (without the background-networking flags Chromium keeps trying
 * Google's hosts).
 */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Absolute paths, most specific first. */
const KNOWN_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  join(homedir(), 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
  join(homedir(), 'Applications/Chromium.app/Contents/MacOS/Chromium'),
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

/** Names looked up on PATH, as `which` would. */
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/**
 * The Chrome/Chromium to use: `CHROME_PATH` if set (it must exist), else the usual install paths,
 * else the usual names on PATH. Returns undefined when none is found. Never installs anything.
 * @returns {string | undefined}
 */
export function findChromium() {
  const fromEnv = process.env.CHROME_PATH?.trim();
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  for (const file of KNOWN_PATHS) if (isExecutable(file)) return file;
  for (const name of PATH_NAMES) {
    const file = onPath(name);
    if (file) return file;
  }
  return undefined;
}

/** One line that tells a person what to do. */
export function missingChromiumMessage() {
  if (process.env.CHROME_PATH?.trim()) {
    return `CHROME_PATH=${process.env.CHROME_PATH} is not an executable file; point it at Chrome or Chromium.`;
  }
  return (
    'No Chrome or Chromium found: install one (Debian/Ubuntu: sudo apt-get install chromium; ' +
    'macOS: install Google Chrome) or set CHROME_PATH to its executable.'
  );
}

/** Like findChromium(), but throws with missingChromiumMessage() when there is none. */
export function requireChromium() {
  const found = findChromium();
  if (!found) throw new Error(missingChromiumMessage());
  return found;
}

/**
 * findChromium(), installing Debian's `chromium` with apt-get first when none is found and we may
 * (root on Debian). Returns the path, or undefined when there is still none.
 */
export function ensureChromium({ log = console.log } = {}) {
  return ensureProgram({
    name: 'ensure-chromium',
    find: findChromium,
    envVar: 'CHROME_PATH',
    aptPackage: 'chromium',
    what: 'Chrome/Chromium',
    log,
  });
}

runWhenMain(import.meta.url, { name: 'ensure-chromium', ensure: ensureChromium, missing: missingChromiumMessage });
