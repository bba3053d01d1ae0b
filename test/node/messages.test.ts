/**
 * The translations, and how the builds ship them. Every locale must say everything English says,
 * with the same `{placeholders}`, and nothing blank: a missing string would fall back to English in
 * the middle of, say, Yoruba, and a missing `{amount}` would hide what the customer pays.
 * The "builds" part reads dist/, which `npm run build` (run by `npm test` first) writes.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Messages } from '../../src/element/messages/en.js';
import { importEntry } from '../../src/element/loading/import-entry.js';
import { fileBesideScript } from '../../src/element/loading/later-files.js';
import { filesFolder } from '../../src/element/loading/script-address.js';
import { ON_DEMAND_LOCALES } from '../../src/element/messages/locales.js';
import { english as en } from '../strings.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist');
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

const translations = new Map<string, Messages>();
for (const locale of ON_DEMAND_LOCALES) {
  translations.set(locale, (await importEntry(locale, 0)).messages as Messages);
}

describe('translations', () => {
  it('lists every locale module in src/element/messages as loadable on demand', () => {
    const files = readdirSync(join(root, 'src/element/messages'))
      .filter((file) => /^[a-z]{2,3}\.ts$/.test(file) && file !== 'en.ts')
      .map((file) => file.replace('.ts', ''));
    assert.deepEqual([...ON_DEMAND_LOCALES].sort(), files.sort());
  });

  for (const [locale, messages] of translations) {
    describe(locale, () => {
      it('has exactly the keys of English', () => {
        assert.deepEqual(Object.keys(messages).sort(), Object.keys(en).sort());
      });

      it('keeps every placeholder of the English string, and adds none', () => {
        for (const key of Object.keys(en) as (keyof Messages)[]) {
          assert.deepEqual(placeholders(messages[key]), placeholders(en[key]), `${locale}.${key}: ${messages[key]}`);
        }
      });

      it('has no empty string', () => {
        for (const [key, value] of Object.entries(messages)) {
          assert.equal(typeof value, 'string', `${locale}.${key}`);
          assert.notEqual(value.trim(), '', `${locale}.${key} is empty`);
        }
      });

      it('is in Unicode NFC, so that what the customer copies or searches matches', () => {
        for (const [key, value] of Object.entries(messages)) {
          assert.equal(value, value.normalize('NFC'), `${locale}.${key}`);
        }
      });
    });
  }

  it('writes Hausa with its hooked letters, Yoruba and Igbo with their dotted vowels', () => {
    const all = (locale: string) => Object.values(translations.get(locale)!).join(' ');
    assert.match(all('ha'), /ɗ/, 'Hausa ɗ (kuɗi)');
    assert.match(all('ha'), /ƙ/, 'Hausa ƙ (ƙasa)');
    assert.match(all('ha'), /ɓ/, 'Hausa ɓ (zaɓi)');
    assert.doesNotMatch(all('ha'), /'[bdk]|[bdk]'/, 'no apostrophe spelling of the hooked letters');
    assert.match(all('yo'), /ẹ/);
    assert.match(all('yo'), /ọ/);
    assert.match(all('yo'), /ṣ/);
    assert.match(all('yo'), /[áàéèíìóòúù]|\u0301|\u0300/, 'Yoruba tone marks');
    assert.match(all('ig'), /ị/);
    assert.match(all('ig'), /ọ/);
    assert.match(all('ig'), /ụ/);
  });

  it('differs from English in each locale wherever English has whole sentences', () => {
    for (const [locale, messages] of translations) {
      for (const key of ['ussdSteps', 'transferSteps', 'notConfirmed', 'FAILEDText'] as const) {
        assert.notEqual(messages[key], en[key], `${locale}.${key} is still English`);
      }
    }
  });
});

describe('Pidgin', () => {
  // Issue 18, "Pidgin that reads as Pidgin": these were English word for word, every action included.
  const translated: (keyof Messages)[] = [
    'bankCode',
    'bankChoose',
    'pay',
    'payNoAmount',
    'bankCodeRequired',
    'copyDialCode',
    'copyAccountNumber',
    'amount',
    'paymentReference',
    'copyAmount',
    'payAnotherWay',
    'retry',
    'startOver',
  ];
  /** What Nigerian banks' menus keep in English in Pidgin too. */
  const bankWords: (keyof Messages)[] = ['USSD', 'TRANSFER', 'email', 'bankName', 'accountNumber', 'walletName'];

  it('translates every action and label, keeping only the bank words as in English', () => {
    const pcm = translations.get('pcm')!;
    for (const key of translated) assert.notEqual(pcm[key], en[key], `pcm.${key} is still English`);
    const sameAsEnglish = (Object.keys(en) as (keyof Messages)[]).filter((key) => pcm[key] === en[key]);
    assert.deepEqual(sameAsEnglish.sort(), [...bankWords].sort());
  });
});

describe('where the script tag finds a locale file', () => {
  const cases: [scriptUrl: string, expected: string][] = [
    ['https://shop.example/js/pay-widget.iife.js', 'https://shop.example/js/pay-widget.yo.js'],
    ['https://shop.example/assets/checkout.js?v=3#x', 'https://shop.example/assets/pay-widget.yo.js'],
    [
      'https://unpkg.com/pay-widget@0.1.0/dist/pay-widget.iife.js',
      'https://unpkg.com/pay-widget@0.1.0/dist/pay-widget.yo.js',
    ],
    // The README's one-liner: a CDN's package address, which names no file (unpkg redirects it, and
    // document.currentScript.src keeps the address as written). Beside it, `https://unpkg.com/
    // pay-widget.yo.js` would be another npm package, anyone's.
    ['https://unpkg.com/pay-widget', 'https://unpkg.com/pay-widget/dist/pay-widget.yo.js'],
    ['https://unpkg.com/pay-widget@1', 'https://unpkg.com/pay-widget@1/dist/pay-widget.yo.js'],
    ['https://cdn.jsdelivr.net/npm/pay-widget@1/', 'https://cdn.jsdelivr.net/npm/pay-widget@1/dist/pay-widget.yo.js'],
  ];
  for (const [scriptUrl, expected] of cases) {
    it(`${scriptUrl} → ${expected}`, () => {
      assert.equal(new URL(fileBesideScript('yo'), filesFolder(scriptUrl)).href, expected);
    });
  }

  it('has no folder without a usable script address (the widget then stays in English)', () => {
    assert.equal(filesFolder(undefined), undefined);
    assert.equal(filesFolder(''), undefined);
  });
});

describe('the builds ship each locale on its own', () => {
  const iife = join(dist, 'pay-widget.iife.js');
  if (!existsSync(iife)) throw new Error('dist/ is missing: run `npm run build` first');

  it('writes each locale beside the script tag as an ES module with the same strings', async () => {
    for (const [locale, messages] of translations) {
      const file = join(dist, fileBesideScript(locale as (typeof ON_DEMAND_LOCALES)[number]));
      const module = await import(pathToFileURL(file).href);
      assert.deepEqual(module.messages, messages, file);
    }
  });

  it('keeps every locale but English out of the script tag', () => {
    const code = readFileSync(iife, 'utf8');
    assert.ok(code.includes(en.chooseType), 'English is built in');
    for (const [locale, messages] of translations) {
      assert.ok(!code.includes(messages.ussdSteps), `${locale} is inside dist/pay-widget.iife.js`);
    }
  });

  it('makes each locale a chunk of its own in the npm build, imported only on demand', () => {
    const staticGraph = new Set<string>();
    const dynamicTargets = new Set<string>();
    const visit = (file: string) => {
      if (staticGraph.has(file)) return;
      staticGraph.add(file);
      const code = readFileSync(file, 'utf8');
      for (const [, specifier] of code.matchAll(/\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g))
        visit(resolve(dirname(file), specifier!));
      for (const [, specifier] of code.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)) {
        dynamicTargets.add(resolve(dirname(file), specifier!));
      }
    };
    visit(join(dist, 'index.js'));
    const staticCode = [...staticGraph].map((file) => readFileSync(file, 'utf8')).join('\n');
    assert.ok(staticCode.includes(en.chooseType), 'English is in the entry');
    for (const [locale, messages] of translations) {
      assert.ok(!staticCode.includes(messages.ussdSteps), `${locale} is loaded with dist/index.js`);
      const chunks = [...dynamicTargets].filter((file) => readFileSync(file, 'utf8').includes(messages.ussdSteps));
      assert.equal(chunks.length, 1, `${locale}: one chunk imported on demand`);
      const others = [...translations.values()].filter((other) => other !== messages);
      const chunk = readFileSync(chunks[0]!, 'utf8');
      assert.ok(!others.some((other) => chunk.includes(other.ussdSteps)), `${locale}'s chunk holds only ${locale}`);
    }
  });
});
