// The answers of reads of a channel's sessions, kept as text (session-answers.ts): never stale. An
// answer is kept until one of the channel's sessions changes or the cache is emptied (another
// process committed), and one computed while either happened is answered but not kept, since it
// may hold what was there before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { sessionAnswers } from '../../src/sandbox/store/postgres/session-answers.js';
import { sessionsRepository } from '../../src/sandbox/store/postgres/sessions.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { dataDatabase, type Process, processOn, testFacts } from './data-process.js';

let process: Process;
beforeAll(async () => {
  process = processOn(await dataDatabase('session_answers'));
});
afterAll(async () => {
  await process.close();
});

const session = (id: string, channel = 'dev'): Session =>
  newSession({
    id,
    channel,
    request: sessionRequest() as CreateSessionRequest,
    now: '2026-03-01T00:00:00.000Z',
    newId: () => `${id}-item`,
  });

/** A computation that ends when the test says, counting how often it ran. */
function gated(text: string) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const compute = async () => {
    compute.runs++;
    await gate;
    return text;
  };
  compute.runs = 0;
  return { compute, open: () => open() };
}

describe('kept answers of reads of sessions', () => {
  it('keeps an answer until one of its channel’s sessions changes', async () => {
    const answers = sessionAnswers(testFacts());
    let runs = 0;
    const compute = async () => `answer ${++runs}`;
    expect(await answers.answer('dev', 'page 1', compute)).toBe('answer 1');
    expect(await answers.answer('dev', 'page 1', compute)).toBe('answer 1');
    answers.dropChannel('other');
    expect(await answers.answer('dev', 'page 1', compute)).toBe('answer 1');
    answers.dropChannel('dev');
    expect(await answers.answer('dev', 'page 1', compute)).toBe('answer 2');
  });

  it('answers but does not keep what was computed while a session of its channel changed', async () => {
    const answers = sessionAnswers(testFacts());
    const slow = gated('before the change');
    const pending = answers.answer('dev', 'page 1', slow.compute);
    answers.dropChannel('dev');
    slow.open();
    expect(await pending).toBe('before the change');
    expect(await answers.answer('dev', 'page 1', async () => 'after the change')).toBe('after the change');
  });

  it('keeps what was computed while another channel changed', async () => {
    const answers = sessionAnswers(testFacts());
    const slow = gated('kept');
    const pending = answers.answer('dev', 'page 1', slow.compute);
    answers.dropChannel('other');
    slow.open();
    await pending;
    expect(await answers.answer('dev', 'page 1', async () => 'not asked')).toBe('kept');
  });

  it('answers but does not keep what was computed while the cache was emptied by another process’s commit', async () => {
    const facts = testFacts();
    const answers = sessionAnswers(facts);
    const slow = gated('before the commit');
    const pending = answers.answer('dev', 'page 1', slow.compute);
    facts.clear();
    slow.open();
    expect(await pending).toBe('before the commit');
    expect(await answers.answer('dev', 'page 1', async () => 'after the commit')).toBe('after the commit');
  });

  it('keeps no answer for a session not found, so that it is found once written', async () => {
    const sessions = sessionsRepository(process.q, sessionAnswers(testFacts()));
    expect(await sessions.detailView('dev', 'later')).toBeUndefined();
    await process.write(() => sessions.insert(session('later')));
    expect(JSON.parse((await sessions.detailView('dev', 'later'))!)).toMatchObject({ id: 'later' });
  });

  it('a session’s write drops its channel’s kept retrieve, so that the next one shows the change', async () => {
    const sessions = sessionsRepository(process.q, sessionAnswers(testFacts()));
    const written = session('changing');
    await process.write(() => sessions.insert(written));
    expect(JSON.parse((await sessions.detailView('dev', 'changing'))!)).toMatchObject({ status: 'pending' });
    await process.write(() => sessions.update({ ...written, status: 'canceled' }));
    expect(JSON.parse((await sessions.detailView('dev', 'changing'))!)).toMatchObject({ status: 'canceled' });
  });
});
