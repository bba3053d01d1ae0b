// Forgets the attempt kept in `sessionStorage` under `name`: the one way both files do it, the first
// on reset() (payment-controller.ts), what runs after a submit when a record cannot be read
// (kept-attempt.ts).
export function forgetAttempt(name: string): void {
  try {
    sessionStorage.removeItem(name);
  } catch {
    // Nothing could be kept either (storage refused).
  }
}
