import { describe, expect, it } from 'vitest';
import { CursorCodec } from '../../../functions/core/pagination/cursor.ts';
import { pageEnvelope } from '../../../functions/core/pagination/page.ts';

const codec = new CursorCodec('k'.repeat(40));
const scope = { endpoint: 'listProjects', orgId: 'org_a', filters: { status: 'ready' } };

describe('CursorCodec', () => {
  it('round-trips a position for the same endpoint, organization and filters', () => {
    const cursor = codec.encode(scope, { pk: 'ORG#org_a', sk: 'PROJECT#p1' });
    expect(codec.decode(cursor, scope)).toEqual({ pk: 'ORG#org_a', sk: 'PROJECT#p1' });
  });

  it.each([
    ['another endpoint', { ...scope, endpoint: 'listApiKeys' }],
    ['another organization', { ...scope, orgId: 'org_b' }],
    ['other filters', { ...scope, filters: { status: 'failed' } }],
  ])('refuses a cursor used with %s', (_label, otherScope) => {
    const cursor = codec.encode(scope, 1);
    expect(() => codec.decode(cursor, otherScope)).toThrow(
      expect.objectContaining({ code: 'invalid_cursor' }),
    );
  });

  it('refuses a cursor signed with another key or altered in any byte', () => {
    const cursor = codec.encode(scope, { n: 1 });
    const foreign = new CursorCodec('z'.repeat(40)).encode(scope, { n: 1 });
    expect(() => codec.decode(foreign, scope)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    for (let i = 0; i < cursor.length; i += 7) {
      const flipped = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
      expect(() => codec.decode(flipped, scope)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    }
  });

  it('refuses oversized and malformed input without throwing anything else', () => {
    for (const bad of ['', '.', 'a.b.c', 'x'.repeat(5000), '%%%.###']) {
      expect(() => codec.decode(bad, scope)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    }
  });
});

describe('pageEnvelope', () => {
  it('derives hasMore and pageInfo from the cursors', () => {
    expect(pageEnvelope({ total: 5, limit: 2, cursor: 'c1', nextCursor: null, returnedCount: 1 })).toEqual({
      total: 5,
      limit: 2,
      cursor: 'c1',
      nextCursor: null,
      returnedCount: 1,
      hasMore: false,
      pageInfo: { startCursor: 'c1', endCursor: null, hasPreviousPage: true, hasNextPage: false },
    });
  });
});
