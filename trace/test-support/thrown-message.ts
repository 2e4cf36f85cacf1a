// For tests of error messages: runs `action`, expects it to throw an instance of `kind`, returns the
// message (people read these, so tests compare them word for word). Fails if nothing is thrown.
import { expect } from 'vitest';

export function thrownMessage(action: () => unknown, kind: abstract new (...args: never[]) => Error): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return (error as Error).message;
  }
  throw new Error(`expected a ${kind.name}, but nothing was thrown`);
}
