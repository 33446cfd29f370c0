// The refusal a domain or store call throws, as a value a test can compare.
import { Refusal } from '../../src/sandbox/domain/errors.js';

/** The code and message of the refusal `call` throws; it fails when the call throws anything else, or nothing. */
export function refusalOf(call: () => unknown): { code: string; message: string } {
  try {
    call();
  } catch (error) {
    if (error instanceof Refusal) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}
