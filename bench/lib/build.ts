/**
 * The scripts the browser figures load, each one classic script (an IIFE) defining its element:
 *
 *   pay-widget        dist/pay-widget.iife.js, the script tag as shipped, with its second file
 *                     (dist/pay-widget.after-submit.js) served beside it
 *   pay-widget (npm)  dist/index.js bundled with Lit the way a merchant's bundler would (Vite,
 *                     production build of Lit, minified; our html`` literals left as shipped)
 *   lit-form          bench/contenders/lit-form.ts, built exactly as the script tag is
 *   vanilla-form      bench/contenders/vanilla-form.ts, built exactly as the script tag is
 *
 * "Exactly as the script tag": vite.config.ts in its script-tag mode, with the entry swapped, plus
 * the same minification of html`` literals applied to the contenders' own files, and the same
 * compile hint on the first line (vite.config.ts, COMPILE_HINT).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type InlineConfig, type Plugin, type Rolldown } from 'vite';
import { fileBesideScript } from '../../src/element/loading/later-files.js';
import { afterSubmitBuild, COMPILE_HINT } from '../../vite.config.js';
import { root } from './paths.js';

const AFTER_SUBMIT_FILE = fileBesideScript('after-submit');

/** `beside`: files its script loads from beside itself (served next to it, under /js/), by name. */
export type Contender = { id: string; label: string; tag: string; code: string; beside?: Record<string, string> };

const contendersDir = join(root, 'bench', 'contenders') + '/';

/** The script-tag build's literal minification (vite.config.ts), for the contenders' own files. */
function minifyContenderLiterals(): Plugin {
  return {
    name: 'bench:minify-contender-literals',
    async transform(code, id) {
      if (!id.startsWith(contendersDir) || !/\bhtml`/.test(code)) return null;
      const { minifyHTMLLiterals } = await import('minify-literals');
      const result = await minifyHTMLLiterals(code, {
        fileName: id,
        minifyOptions: {
          collapseWhitespace: true,
          conservativeCollapse: true,
          decodeEntities: false,
          removeEmptyAttributes: false,
          minifyJS: false,
        },
      });
      return result ? { code: result.code, map: result.map?.toString() } : null;
    },
  };
}

async function bundle(config: InlineConfig): Promise<string> {
  const result = await build({ logLevel: 'silent', ...config });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((output) => output.output).find((item) => item.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('bench build: no chunk in the output');
  return chunk.code;
}

/**
 * An entry built with vite.config.ts's script-tag settings. Unminified (`minify: false`) for
 * profiling: names kept, and a comment naming each module before its code.
 */
function asScriptTag(
  entry: string,
  { css = '', minify = true }: { css?: string; minify?: boolean } = {},
): Promise<string> {
  return bundle({
    configFile: join(root, 'vite.config.ts'),
    mode: 'script-tag',
    plugins: [minifyContenderLiterals()],
    define: { __PAY_WIDGET_CSS__: JSON.stringify(css) },
    build: {
      write: false,
      sourcemap: false,
      outDir: join(root, 'bench', '.cache', 'build'),
      ...(minify ? {} : { minify: false }),
      lib: { entry: join(root, entry), formats: ['iife'], name: 'BenchContender', fileName: () => 'contender.js' },
      // The script tag's compile hint, as its first line; no licence line: not the script tag.
      rolldownOptions: { output: { postBanner: COMPILE_HINT, ...(minify ? {} : { minify: false }) } },
    },
  });
}

/** dist/index.js and Lit in one minified script, as a merchant's bundler would make it. */
function npmBundle(minify = true): Promise<string> {
  return bundle({
    configFile: false,
    root,
    publicDir: false,
    resolve: { conditions: ['browser', 'module', 'production'] },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      target: ['es2022', 'safari15'],
      minify: minify ? 'oxc' : false,
      lib: { entry: join(root, 'dist', 'index.js'), formats: ['iife'], name: 'PayWidget', fileName: () => 'npm.js' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
}

export async function buildContenders(): Promise<Contender[]> {
  // The widget's CSS as text, for the hand-written element (Lit's css`` works in Node).
  const { styles } = await import('../../src/element/pay-widget.styles.js');
  const css = styles.cssText;
  return [
    {
      id: 'widget',
      label: '<pay-widget> script tag',
      tag: 'pay-widget',
      code: readFileSync(join(root, 'dist', 'pay-widget.iife.js'), 'utf8'),
      beside: { [AFTER_SUBMIT_FILE]: readFileSync(join(root, 'dist', AFTER_SUBMIT_FILE), 'utf8') },
    },
    { id: 'widget-npm', label: '<pay-widget> npm build', tag: 'pay-widget', code: await npmBundle() },
    {
      id: 'lit',
      label: 'same form, plain Lit',
      tag: 'lit-form',
      code: await asScriptTag('bench/contenders/lit-form.ts'),
    },
    {
      id: 'vanilla',
      label: 'same form, hand-written',
      tag: 'vanilla-form',
      code: await asScriptTag('bench/contenders/vanilla-form.ts', { css }),
    },
  ];
}

/** The script tag's second file as vite.config.ts builds it, unminified (no Terser pass, no Oxc minification). */
function afterSubmitUnminified(): Promise<string> {
  const plugins = (afterSubmitBuild.plugins as Plugin[]).filter(
    (plugin) => plugin.name !== 'pay-widget:terser-before-oxc',
  );
  const { build: options } = afterSubmitBuild;
  return bundle({
    ...afterSubmitBuild,
    plugins,
    build: {
      ...options,
      write: false,
      sourcemap: false,
      minify: false,
      rolldownOptions: { ...options!.rolldownOptions, output: { ...options!.rolldownOptions!.output, minify: false } },
    },
  });
}

/** The same builds unminified, for scripts/bench-profile.ts to name the modules and functions that take the time. */
export async function buildForProfile(): Promise<Contender[]> {
  return [
    {
      id: 'widget',
      label: '<pay-widget> script tag, unminified',
      tag: 'pay-widget',
      code: await asScriptTag('src/index.ts', { minify: false }),
      beside: { [AFTER_SUBMIT_FILE]: await afterSubmitUnminified() },
    },
    { id: 'widget-npm', label: '<pay-widget> npm build, unminified', tag: 'pay-widget', code: await npmBundle(false) },
    {
      id: 'lit',
      label: 'same form, plain Lit, unminified',
      tag: 'lit-form',
      code: await asScriptTag('bench/contenders/lit-form.ts', { minify: false }),
    },
  ];
}
