// `listen` trusts only its own flags (src/sandbox/cli/forwarded-request.ts): what it POSTs goes to
// its --forward-to, with the claimed body byte for byte, and of the claim's headers only those a
// receiver needs; a header the sandbox adds beyond them (an authorization, a cookie, a host) never
// reaches the receiver, and the user-agent is listen's own.
import { describe, expect, it } from 'vitest';
import {
  FORWARD_USER_AGENT,
  FORWARDED_HEADERS,
  forwardedHeaders,
  forwardedRequest,
} from '../../src/sandbox/cli/forwarded-request.js';

const signed = {
  'content-type': 'application/json',
  'user-agent': 'hsa-fsa-sandbox-webhooks',
  'x-sandbox-webhook-delivery': '1',
  'x-service-signature': 't=1,v0=ab',
};

describe('the headers listen forwards', () => {
  it("are the signature, the content type and the delivery mark of the claim, and listen's own user-agent", () => {
    expect(FORWARDED_HEADERS).toEqual(['content-type', 'x-service-signature', 'x-sandbox-webhook-delivery']);
    expect(forwardedHeaders(signed)).toEqual({ ...signed, 'user-agent': FORWARD_USER_AGENT });
    expect(FORWARD_USER_AGENT).toBe('hsa-fsa-sandbox-webhooks');
  });

  it('drop every other header a claim names, whatever its case', () => {
    const hostile = {
      ...signed,
      authorization: 'Bearer injected',
      Cookie: 'session=1',
      host: 'internal',
      'user-agent': 'evil',
      'X-Service-Api-Key': 'k',
      'x-forwarded-for': '10.0.0.1',
      'transfer-encoding': 'chunked',
      'content-length': '5',
    };
    expect(forwardedHeaders(hostile)).toEqual({ ...signed, 'user-agent': FORWARD_USER_AGENT });
  });

  it('take a named header in any case, written in lower case; a value that is not text is dropped', () => {
    const type = 'application/json; charset=utf-8';
    const claimed = { 'Content-Type': type, 'X-Service-Signature': 't=2,v0=cd', 'x-sandbox-webhook-delivery': 1 };
    const kept = { 'content-type': type, 'x-service-signature': 't=2,v0=cd', 'user-agent': FORWARD_USER_AGENT };
    expect(forwardedHeaders(claimed)).toEqual(kept);
  });

  it('say the body is JSON when the claim does not', () => {
    expect(forwardedHeaders({})).toEqual({ 'content-type': 'application/json', 'user-agent': FORWARD_USER_AGENT });
  });
});

describe('the request listen sends', () => {
  it('goes to --forward-to with the claimed body as is', () => {
    const body = '{"webhook_delivery_id":"dlv_1","event_type":"dispute.created","data":{}}';
    const claim = { request_body: body, request_headers: { ...signed, authorization: 'Bearer injected' } };
    const headers = { ...signed, 'user-agent': FORWARD_USER_AGENT };
    const url = 'http://localhost:3000/webhooks';
    expect(forwardedRequest(url, claim)).toEqual({ url, body, headers });
  });
});
