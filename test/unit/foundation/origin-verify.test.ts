import { describe, expect, it } from 'vitest';
import { fromOrigin, viewerAddress } from '../../../functions/shared/http/origin-verify.ts';

describe("the distribution's headers", () => {
  it("reads the viewer's address without its port (IPv4, IPv6), and nothing from a malformed value", () => {
    // Act
    const addresses = [
      '192.0.2.1:46532',
      '2001:db8::1:46532',
      '[2001:db8::1]:443',
      'not-an-ip:80',
      '192.0.2.1',
      '',
    ].map((value) => viewerAddress({ 'cloudfront-viewer-address': value }));

    // Assess
    expect(addresses).toEqual(['192.0.2.1', '2001:db8::1', '2001:db8::1', null, null, null]);
    expect(viewerAddress(undefined)).toBeNull();
  });

  it('accepts exactly the origin secret', () => {
    // Prepare
    const secret = 's'.repeat(48);

    // Act
    const verdicts = [secret, `${secret}x`, 's'.repeat(47), ''].map((value) =>
      fromOrigin({ 'x-origin-verify': value }, secret),
    );

    // Assess
    expect(verdicts).toEqual([true, false, false, false]);
    expect(fromOrigin({}, secret)).toBe(false);
  });
});
