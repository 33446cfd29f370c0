// Answers of reads of a channel's sessions (a list page, a detail record), kept as the JSON text
// that was sent, so that the same read again touches no table. Every write of one of the
// channel's sessions drops the channel's answers; another process's commit and any rollback drop
// them all, as they drop every cached fact (fact-cache.ts).
//
// Kept answers are bounded by the memory they take, whatever the queries: each channel's at most
// `perChannelBytes`, all channels' together at most `totalBytes`, the oldest dropped first (the
// oldest of any channel for the total). An answer larger than a channel's budget is answered and
// not kept. A string counts 2 bytes per character, the most a JavaScript string takes, and each
// kept answer ENTRY_BYTES more for its entries.
import type { FactCache } from './fact-cache.js';

const MiB = 1024 * 1024;
/** The sandbox's bounds (openapi/sandbox.yaml, Limits). */
export const ANSWER_CACHE_BOUNDS = { perChannelBytes: 16 * MiB, totalBytes: 64 * MiB };
/** A longer key (a query stuffed with parameters) is answered but not kept. */
const MAX_KEY_LENGTH = 1_000;
/** What a kept answer's entries take besides its text and key: the maps' slots, the records, the channel's name. */
export const ENTRY_BYTES = 128;

export interface AnswerCacheBounds {
  perChannelBytes: number;
  totalBytes: number;
}

export interface AnswerCache {
  /** The channel's answer under `key`, computed (and kept) when absent; an answer that throws is not kept. */
  answer(channel: string, key: string, compute: () => string): string;
  /** The channel's answer under `key`, if kept. */
  get(channel: string, key: string): string | undefined;
  set(channel: string, key: string, text: string): void;
  /** Drops the channel's answers: one of its sessions changed. */
  dropChannel(channel: string): void;
  /** The bytes the kept answers are counted at: the channel's, or all channels' without one. */
  bytes(channel?: string): number;
}

interface Kept {
  text: string;
  bytes: number;
}

interface ChannelAnswers {
  /** Oldest first. */
  answers: Map<string, Kept>;
  bytes: number;
}

/** What a kept answer is counted at: its text, and its key twice (in its channel's map, and in the id of its age). */
export const keptBytes = (key: string, text: string) => 2 * (2 * key.length + text.length) + ENTRY_BYTES;

export function answerCache(facts: FactCache, bounds: AnswerCacheBounds = ANSWER_CACHE_BOUNDS): AnswerCache {
  // Maps emptied with every cached fact: the counts live beside the answers they count.
  const byChannel = facts.map<ChannelAnswers>();
  // Every kept answer, oldest first whatever its channel: the total's bound drops from the front.
  const ages = facts.map<{ channel: string; key: string }>();
  const idOf = (channel: string, key: string) => `${channel}\u0000${key}`;
  const total = () => [...byChannel.values()].reduce((sum, channel) => sum + channel.bytes, 0);

  function drop(channel: string, key: string): void {
    const mine = byChannel.get(channel)!;
    mine.bytes -= mine.answers.get(key)!.bytes;
    mine.answers.delete(key);
    ages.delete(idOf(channel, key));
    if (mine.answers.size === 0) byChannel.delete(channel);
  }

  const cache: AnswerCache = {
    answer(channel, key, compute) {
      const found = cache.get(channel, key);
      if (found !== undefined) return found;
      const text = compute();
      cache.set(channel, key, text);
      return text;
    },
    get: (channel, key) => byChannel.get(channel)?.answers.get(key)?.text,
    set(channel, key, text) {
      const bytes = keptBytes(key, text);
      if (key.length > MAX_KEY_LENGTH || bytes > Math.min(bounds.perChannelBytes, bounds.totalBytes)) return;
      if (byChannel.get(channel)?.answers.has(key)) drop(channel, key);
      while ((byChannel.get(channel)?.bytes ?? 0) + bytes > bounds.perChannelBytes)
        drop(channel, byChannel.get(channel)!.answers.keys().next().value!);
      while (total() + bytes > bounds.totalBytes) {
        const oldest = ages.values().next().value!;
        drop(oldest.channel, oldest.key);
      }
      let mine = byChannel.get(channel);
      if (!mine) {
        mine = { answers: new Map(), bytes: 0 };
        byChannel.set(channel, mine);
      }
      mine.answers.set(key, { text, bytes });
      mine.bytes += bytes;
      ages.set(idOf(channel, key), { channel, key });
    },
    dropChannel(channel) {
      for (const key of byChannel.get(channel)?.answers.keys() ?? []) ages.delete(idOf(channel, key));
      byChannel.delete(channel);
    },
    bytes: (channel) => (channel === undefined ? total() : (byChannel.get(channel)?.bytes ?? 0)),
  };
  return cache;
}
