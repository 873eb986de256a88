import { describe, expect, it } from 'vitest';
import type { RegionRecord } from '../../../functions/core/content/model.ts';
import { referenceKey, waitingKeys } from '../../../functions/core/pipeline/waiting-sheets.ts';

describe('sheet keys of references that wait for a sheet', () => {
  it('lists each unresolved sheet once, without separators, and not the resolved ones', () => {
    const reference = (sheetNormalized: string, target: { pageNumber: number; regionId: null } | null) => ({
      text: `3/${sheetNormalized}`,
      detail: '3',
      sheet: sheetNormalized,
      sheetNormalized,
      displayBox: null,
      target,
    });
    const data = (references: ReturnType<typeof reference>[]) =>
      ({ sheetReferences: references }) as unknown as NonNullable<RegionRecord['normalizedData']>;
    expect(
      waitingKeys([
        { normalizedData: data([reference('A-501', null), reference('S-2.1', null)]) },
        {
          normalizedData: data([
            reference('A501', null),
            reference('A-101', { pageNumber: 1, regionId: null }),
          ]),
        },
        { normalizedData: null },
      ]),
    ).toEqual(['A501', 'S21']);
    expect(referenceKey('a-5.01')).toBe('A501');
  });
});
