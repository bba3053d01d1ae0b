// A css tag for the element's stylesheet, which has no interpolations. The build still minifies
// it (minify-literals finds css tags, but skips a file that names Lit's unsafe helper, so it lives
// here), and the script tag carries none of Lit's own css tag, whose checks of interpolated values
// cost about 150 B gzipped. The text is the package's own stylesheet: nothing unsafe.
import { unsafeCSS, type CSSResult } from 'lit';

export const css = (text: TemplateStringsArray): CSSResult => unsafeCSS(text[0]);
