// The rate limit per API key (keys/rate-limiter.ts) on every route that takes a channel's key, once
// the key is known good (auth.ts runs first). A request past it answers 429 TooManyRequests in the
// error shape, with Retry-After and the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers:
// a policy of `burst` requests per the seconds an empty bucket takes to fill, and none remaining
// until Retry-After). It is the sandbox's own: the contract declares no 429.
import type { FastifyInstance } from 'fastify';
import { fillSeconds, type RateLimit } from '../domain/rate-limit.js';
import type { RateDecision, RateLimiter } from '../keys/rate-limiter.js';
import { API_KEY_HEADER } from './auth.js';
import { HttpRefusal } from './errors.js';

export const tooManyRequests = (decision: Extract<RateDecision, { allowed: false }>, limit: RateLimit) =>
  new HttpRefusal(
    429,
    'TooManyRequests',
    `This API key is past its rate limit (${limit.perSecond} requests per second, in bursts of up to ` +
      `${limit.burst}): retry in ${decision.retryAfter} s.`,
    {
      'retry-after': String(decision.retryAfter),
      'ratelimit-policy': `"sandbox";q=${limit.burst};w=${fillSeconds(limit)}`,
      ratelimit: `"sandbox";r=0;t=${decision.retryAfter}`,
    },
  );

/** Refusals are told to `onRefused` with the key's channel (the metrics). */
export function registerRateLimit(
  app: FastifyInstance,
  limiter: RateLimiter,
  onRefused: (channel: string) => void = () => {},
): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config.requiresKey !== true) return done();
    // The auth hook has let only a known key through: a string.
    const key = request.headers[API_KEY_HEADER] as string;
    // Most requests spend a token held in memory, with no promise made.
    if (limiter.spend(key)) return done();
    limiter.take(key).then((decision) => {
      if (decision.allowed) return done();
      onRefused(request.channel);
      done(tooManyRequests(decision, limiter.limit));
    }, done);
  });
}
