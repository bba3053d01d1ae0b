// Keeps a radio's `checked` or an option's `selected` property in step with the element's state.
// Paired in templates with `?checked` / `?selected`, which give the HTML its state: a property
// binding (`.checked=${false}`) is written by Lit SSR as `checked="false"`, which the HTML parser
// reads as checked, so a server-rendered form would show the last radio and the last bank chosen.
// An element binding is skipped by Lit SSR and runs on every render in the browser.
import { nothing } from 'lit';
import { Directive, directive, type ElementPart } from 'lit/directive.js';

class PickedDirective extends Directive {
  render(_picked: boolean) {
    return nothing;
  }

  override update(part: ElementPart, [picked]: [boolean]) {
    const element = part.element as HTMLInputElement | HTMLOptionElement;
    if ('selected' in element) element.selected = picked;
    else element.checked = picked;
    return nothing;
  }
}

/** On an `<input type="radio">` or an `<option>`: whether it is the one chosen now. */
export const picked = directive(PickedDirective);
