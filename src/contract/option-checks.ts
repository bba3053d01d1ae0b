// The option checks every factory shares (handlers, gateway, reconciler, sandbox): an option that
// the types allow but that cannot work is refused with a TypeError when the factory is called,
// naming the factory and the option, never on the first payment.

type OptionChecks = {
  /** Throws `TypeError('<factory>: <problem>')`. */
  fail(problem: string): never;
  /** A positive, finite number of milliseconds, when given. */
  positiveMs(name: string, value: unknown): void;
  /** A finite number of milliseconds, 0 or more, when given. */
  nonNegativeMs(name: string, value: unknown): void;
  /** A function, when given. */
  optionalFunction(name: string, value: unknown): void;
  /** A function, always. */
  requiredFunction(name: string, value: unknown): void;
  /** An absolute URL, when given. */
  absoluteUrl(name: string, value: unknown): void;
};

export function optionChecks(factory: string): OptionChecks {
  const fail = (problem: string): never => {
    throw new TypeError(`${factory}: ${problem}`);
  };
  return {
    fail,
    positiveMs(name, value) {
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
        fail(`${name} must be a positive finite number`);
      }
    },
    nonNegativeMs(name, value) {
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
        fail(`${name} must be a finite number, 0 or more`);
      }
    },
    optionalFunction(name, value) {
      if (value !== undefined && typeof value !== 'function') fail(`${name} must be a function`);
    },
    requiredFunction(name, value) {
      if (typeof value !== 'function') fail(`${name} must be a function`);
    },
    absoluteUrl(name, value) {
      if (value !== undefined && !(typeof value === 'string' && URL.canParse(value)))
        fail(`${name} must be an absolute URL`);
    },
  };
}
