import { describe, expect, it } from 'vitest';
import { COPY_AUTHORIZATION } from '../../../lib/edge.ts';

type Headers = Record<string, { value: string }>;
// The CloudFront function's source, run as CloudFront runs it: handler(event) -> request.
const handler = new Function(`${COPY_AUTHORIZATION}; return handler;`)() as (event: {
  request: { headers: Headers };
}) => { headers: Headers };

describe('the CloudFront function of the stream path', () => {
  it("keeps the client's bearer key where origin access control does not overwrite it", () => {
    const request = handler({ request: { headers: { authorization: { value: 'Bearer psk_a_b' } } } });
    expect(request.headers['x-service-authorization']).toEqual({ value: 'Bearer psk_a_b' });
  });

  it('never forwards a value the client sent in that header itself', () => {
    const forged = handler({
      request: { headers: { 'x-service-authorization': { value: 'Bearer stolen' } } },
    });
    const replaced = handler({
      request: {
        headers: {
          authorization: { value: 'Bearer mine' },
          'x-service-authorization': { value: 'Bearer stolen' },
        },
      },
    });
    expect(forged.headers['x-service-authorization']).toBeUndefined();
    expect(replaced.headers['x-service-authorization']).toEqual({ value: 'Bearer mine' });
  });
});
