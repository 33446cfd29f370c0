// Answers of reads of a channel's sessions (a list page, a detail record), kept as the JSON text
// that was sent, so that the same read again touches no table. Every write of one of the
// channel's sessions drops the channel's answers; another process's commit and any rollback drop
// them all, as they drop every cached fact (fact-cache.ts).
import type { FactCache } from './fact-cache.js';

/** Answers kept per channel, the oldest dropped first: a bound on memory, whatever the queries. */
const MAX_ANSWERS_PER_CHANNEL = 500;
/** A longer key (a query stuffed with parameters) is answered but not kept: 500 of them could hold a URL's worth each. */
const MAX_KEY_LENGTH = 1_000;

export interface AnswerCache {
  /** The channel's answer under `key`, computed (and kept) when absent; an answer that throws is not kept. */
  answer(channel: string, key: string, compute: () => string): string;
  /** The channel's answer under `key`, if kept. */
  get(channel: string, key: string): string | undefined;
  set(channel: string, key: string, text: string): void;
  /** Drops the channel's answers: one of its sessions changed. */
  dropChannel(channel: string): void;
}

export function answerCache(facts: FactCache, maxPerChannel = MAX_ANSWERS_PER_CHANNEL): AnswerCache {
  const byChannel = facts.map<Map<string, string>>();
  const cache: AnswerCache = {
    answer(channel, key, compute) {
      const kept = cache.get(channel, key);
      if (kept !== undefined) return kept;
      const text = compute();
      cache.set(channel, key, text);
      return text;
    },
    get: (channel, key) => byChannel.get(channel)?.get(key),
    set(channel, key, text) {
      if (key.length > MAX_KEY_LENGTH) return;
      let answers = byChannel.get(channel);
      if (!answers) byChannel.set(channel, (answers = new Map()));
      if (answers.size >= maxPerChannel) answers.delete(answers.keys().next().value!);
      answers.set(key, text);
    },
    dropChannel: (channel) => void byChannel.delete(channel),
  };
  return cache;
}
