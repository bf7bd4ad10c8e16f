import type { DomainError } from '../../src/domain/errors.js';

/** The error a synchronous rule throws for refused input; fails the test when the rule accepts it. */
export function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected a refusal');
}
