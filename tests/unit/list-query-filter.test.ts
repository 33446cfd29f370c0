// list_payment_sessions: the filter a query asks for holds only what the query names, a date-time the
// sandbox cannot compare is refused naming its parameter, and page_size is at most 1000.
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../src/sandbox/domain/errors.js';
import { MAX_PAGE_SIZE, pageRequest, sessionListFilter, storedTime } from '../../src/sandbox/domain/listing.js';

function refusalOf(run: () => unknown): Refusal {
  try {
    run();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the session list filter', () => {
  it('names nothing the query leaves out', () => {
    expect(sessionListFilter({})).toStrictEqual({ excludeStatuses: [] });
  });

  it('carries each filter the query names', () => {
    expect(
      sessionListFilter({ status: ['captured'], kind: ['authorization'], payment_token: 'pt_1', search: 'jane' }),
    ).toStrictEqual({
      excludeStatuses: [],
      statuses: ['captured'],
      kinds: ['authorization'],
      paymentToken: 'pt_1',
      search: 'jane',
    });
  });

  it('keeps a half-open time range half open', () => {
    expect(
      sessionListFilter({ created_on_end: '2026-01-01T00:00:00Z', captured_on_start: '2026-02-01T00:00:00Z' }),
    ).toStrictEqual({
      excludeStatuses: [],
      created: { to: '2026-01-01T00:00:00.000Z' },
      captured: { from: '2026-02-01T00:00:00.000Z' },
    });
  });

  it('refuses a date-time it cannot compare, naming the parameter and the value', () => {
    for (const name of ['created_on_start', 'created_on_end', 'captured_on_start', 'captured_on_end'] as const) {
      const refusal = refusalOf(() => sessionListFilter({ [name]: 'not-a-time' }));
      expect({ code: refusal.code, message: refusal.message }).toEqual({
        code: 'InvalidRequestParameter',
        message: `${name} is not a date-time the sandbox can compare: not-a-time.`,
      });
    }
    expect(() => storedTime('2016-12-31T23:59:60Z', 'created_on_start')).toThrow(/created_on_start is not a date-time/);
  });
});

describe('page requests', () => {
  it('takes page_size up to 1000 and refuses more, saying the limit', () => {
    expect(pageRequest({ page_size: MAX_PAGE_SIZE })).toEqual({ page: 1, pageSize: 1000 });
    const refusal = refusalOf(() => pageRequest({ page_size: MAX_PAGE_SIZE + 1 }));
    expect({ code: refusal.code, message: refusal.message }).toEqual({
      code: 'InvalidRequestParameter',
      message: 'page_size must be at most 1000 in the sandbox.',
    });
  });
});
