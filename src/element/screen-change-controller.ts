// How a customer who cannot see the screen change learns that it did: the live region says each
// new screen (or what the element asks it to say), and the focus moves once the screen has drawn
// (focus.ts).
import type { ReactiveController, ReactiveElement } from 'lit';
import type { FlowState } from './flow.js';
import { moveFocus, type FocusTarget } from './focus.js';

export class ScreenChangeController implements ReactiveController {
  /** What the live region says; undefined: the screen's own words, in the language shown now. */
  said: string | undefined = '';
  /** Where the focus goes once the host has updated. */
  focus: FocusTarget | undefined;

  constructor(private readonly host: ReactiveElement) {
    host.addController(this);
  }

  /** Says `text` in the live region, even when it is what the region already holds. */
  async announce(text: string): Promise<void> {
    this.said = '';
    this.host.requestUpdate();
    await this.host.updateComplete;
    this.said = text;
    this.host.requestUpdate();
  }

  /**
   * Another screen (`kind`) shows, in the host's update: the region says it, and the focus goes to its heading or, on
   * the form, to its first control (`refused`: its first field the server refused). The busy form disables its
   * controls, which takes the focus off the focused one; leaving it first spares Chromium a synchronous style and
   * layout pass (about 2 ms).
   */
  shown(kind: FlowState['kind'], refused: boolean): void {
    this.said = undefined;
    this.focus = kind === 'submitting' ? undefined : kind !== 'form' ? 'heading' : refused ? 'invalid' : 'first';
    if (kind === 'submitting') (this.host.shadowRoot?.activeElement as HTMLElement | null)?.blur();
  }

  hostUpdated(): void {
    const target = this.focus;
    if (!target) return;
    this.focus = undefined;
    moveFocus(this.host, this.host.renderRoot, target);
  }
}
