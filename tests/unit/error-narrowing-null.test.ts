// hasErrorCode on a body that is JSON null (a response whose body reads as null): no code, no throw.
import { describe, expect, it } from 'vitest';
import { hasErrorCode, type OperationErrorBody } from '../../src/client/index.js';

describe('hasErrorCode on a JSON null body', () => {
  it('answers false rather than throwing', () => {
    const error = null as unknown as OperationErrorBody<'capturePaymentSession'>;
    expect(hasErrorCode(error, 'SessionVoided')).toBe(false);
  });
});
