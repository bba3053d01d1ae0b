// The Custom Elements Manifest (dist/custom-elements.json, named by package.json "customElements"):
// the element's attributes, properties, events, parts, CSS properties and slots, read from
// src/element/pay-widget.ts and its JSDoc, for IDEs, Storybook and framework type generators.
export default {
  globs: ['src/element/pay-widget.ts', 'src/define.ts'],
  outdir: 'dist',
  litelement: true,
};
