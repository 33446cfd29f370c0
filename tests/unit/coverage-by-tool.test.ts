// The one coverage table: a column per tool (the workflows, the fuzz, Schemathesis), so that each
// declared code shows which tool reached it.
import { describe, expect, it } from 'vitest';
import { Coverage, coverageByToolTable, declaredCodes } from '../../testkit/coverage.js';

describe('coverageByToolTable', () => {
  const workflows = new Coverage();
  workflows.record({ operationId: 'capturePaymentSession', status: 400, code: 'SessionVoided' }, 2);
  const schemathesis = Coverage.fromJSON([
    { operationId: 'capturePaymentSession', status: 400, code: 'PaymentSessionDoesNotExist', count: 7 },
    { operationId: 'capturePaymentSession', status: 400, code: 'SessionVoided', count: 1 },
  ]);
  const table = coverageByToolTable([
    { tool: 'workflows', coverage: workflows },
    { tool: 'fuzz', coverage: undefined },
    { tool: 'Schemathesis', coverage: schemathesis },
  ]);
  const row = (code: string) =>
    table.split('\n').find((line) => line.startsWith(`| capturePaymentSession | 400 | ${code} |`));

  it('gives each code a count per tool, and says which tool did not run', () => {
    expect(row('SessionVoided')).toBe('| capturePaymentSession | 400 | SessionVoided | 2 | not run | 1 |  |');
    expect(row('PaymentSessionDoesNotExist')).toBe(
      '| capturePaymentSession | 400 | PaymentSessionDoesNotExist | · | not run | 7 |  |',
    );
  });

  it('lists every declared code, marking those no tool produced', () => {
    expect(row('SessionExpired')).toBe(
      '| capturePaymentSession | 400 | SessionExpired | · | not run | · | NEVER PRODUCED |',
    );
    expect(row('ServerError')).toMatch(/allow-listed \|$/);
    expect(table.split('\n').length).toBeGreaterThanOrEqual(declaredCodes().length + 2);
  });
});
