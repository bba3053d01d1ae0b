// The form's state, for an element that only renders it: what the customer typed, which fields they
// typed in (dirty) or left (touched), which the page prefilled, the server's field messages, and the
// errors to show. An error shows as Lion shows it: once the field is touched and dirty, or was
// prefilled, or after a submit; never on the blur of a field nobody typed in.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { bankMatches } from './bank-search.js';
import type { Bank } from './banks.js';
import type { Messages } from './messages/index.js';
import { isValidField, type CustomerField } from '../contract/rules.js';
import type { SessionRequest } from '../contract/schemas.js';

export type Values = Record<CustomerField, string>;

export type FormConfig = {
  /** The strings of the current update. */
  messages: Messages;
  /** The fields on the form now, in form order (no bank list for a transfer). */
  fields: readonly CustomerField[];
};

export class FormController implements ReactiveController {
  values: Values = { fullName: '', email: '', mobileNumber: '', bankCode: '' };
  /** The error each field shows, computed once per update. */
  shown: Partial<Values> = {};
  /** What the customer typed in the bank search. */
  bankQuery = '';

  private readonly touched = new Set<CustomerField>();
  private readonly dirty = new Set<CustomerField>();
  private readonly prefilled = new Set<CustomerField>();
  private submitted = false;
  private serverErrors: Partial<Record<string, string>> = {};

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly config: () => FormConfig,
  ) {
    host.addController(this);
  }

  hostUpdate(): void {
    const errors = this.errors();
    this.shown = {};
    for (const [field, error] of Object.entries(errors) as [CustomerField, string][]) {
      const lionWouldShow =
        this.submitted || this.prefilled.has(field) || (this.touched.has(field) && this.dirty.has(field));
      if (lionWouldShow || this.serverErrors[field]) this.shown[field] = error;
    }
  }

  /** The page set a field: it follows unless the customer has typed in it. */
  prefill(field: CustomerField, value: string): void {
    if (this.dirty.has(field)) return;
    this.values = { ...this.values, [field]: value };
    if (value) this.prefilled.add(field);
    else this.prefilled.delete(field);
  }

  /** The customer typed or chose; a `<select>` has no typing phase, so a choice also leaves the field. */
  input(field: CustomerField, value: string, leaving: boolean): void {
    this.values = { ...this.values, [field]: value };
    this.dirty.add(field);
    if (leaving) this.touched.add(field);
    delete this.serverErrors[field];
    this.host.requestUpdate();
  }

  /**
   * The customer searched the bank list: a search that leaves one bank chooses it, and one that no
   * longer lists the chosen bank takes it back, so that Pay never uses a bank the list hides.
   */
  search(query: string, banks: readonly Bank[]): void {
    this.bankQuery = query;
    const found = banks.filter((bank) => bankMatches(bank, query)).map((bank) => bank.code);
    const { bankCode } = this.values;
    // One bank found needs a query: an empty one finds them all, and the search box shows for more than six.
    const chosen = found.length === 1 ? found[0]! : found.includes(bankCode) ? bankCode : '';
    if (chosen !== bankCode) this.input('bankCode', chosen, true);
    this.host.requestUpdate();
  }

  leave(field: CustomerField): void {
    this.touched.add(field);
    this.host.requestUpdate();
  }

  /** A submit: every error shows from now on. Returns the first field in error, if any. */
  submit(): { field: CustomerField; message: string } | undefined {
    this.submitted = true;
    this.host.requestUpdate();
    const [first] = Object.entries(this.errors()) as [CustomerField, string][];
    return first && { field: first[0], message: first[1] };
  }

  /**
   * Back from an attempt (a failure, or "Pay another way"): its request fills the fields left empty
   * (after a reload, the customer typed them before it), and the session endpoint's messages for
   * fields it `refused` show until the customer changes them.
   */
  backFrom(request: Partial<SessionRequest> = {}, refused: Partial<Record<string, string>> = {}): void {
    for (const [field, value] of Object.entries(request))
      if (this.values[field as CustomerField] === '') this.prefill(field as CustomerField, value);
    this.serverErrors = { ...refused };
  }

  hasRefusals(): boolean {
    return this.config().fields.some((field) => this.serverErrors[field]);
  }

  /** A new payment: nothing shows until the customer leaves a field again; what was typed stays. */
  reset(): void {
    this.submitted = false;
    this.touched.clear();
    this.serverErrors = {};
    this.host.requestUpdate();
  }

  /** Each visible field's error, in form order, whether or not it is shown yet. */
  private errors(): Partial<Values> {
    const { messages, fields } = this.config();
    const errors: Partial<Values> = {};
    for (const field of fields) {
      const value = this.values[field];
      const error = !value.trim()
        ? messages[`${field}Required`]
        : isValidField(field, value)
          ? this.serverErrors[field]
          : messages[`${field}Invalid`];
      if (error) errors[field] = error;
    }
    return errors;
  }
}
