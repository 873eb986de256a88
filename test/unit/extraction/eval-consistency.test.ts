import { describe, expect, it } from 'vitest';
import { consistencyOf, titlesAgree } from '../../../bench/extraction-eval/consistency.ts';
import type { ExtractionResult, Sheet } from '../../../functions/engine/model.ts';
import { sheetFixture } from './fixtures.ts';

const numbered = (pageNumber: number, number: string, title: string | null, indexTitle?: string): Sheet =>
  sheetFixture([], {
    pageNumber,
    sheetNumber: number,
    sheetNumberNormalized: number,
    sheetTitle: title,
    identification: {
      numberSource: 'titleBlock',
      titleSource: title ? 'titleBlock' : 'none',
      indexEntry: indexTitle ? { number, title: indexTitle } : null,
    },
  });

describe('label-free consistency of a set', () => {
  it('compares titles by their words, not their order or punctuation', () => {
    expect(titlesAgree('PLAN - LEVEL 1', 'LEVEL 1 PLAN')).toBe(true);
    expect(titlesAgree('FOUNDATION PLAN', 'ROOF PLAN')).toBe(false);
  });

  it('counts repeated numbers, sheets outside the index and titles that disagree with it', () => {
    // Prepare: A-101 read twice (one of them wrong), A-102 titled unlike its index entry, A-900 not indexed.
    const result = {
      sheets: [
        numbered(1, 'A-101', 'FLOOR PLAN', 'FLOOR PLAN'),
        numbered(2, 'A-101', 'ROOF PLAN', 'FLOOR PLAN'),
        numbered(3, 'A-102', null, 'ELEVATIONS'),
        numbered(4, 'A-900', 'DETAILS'),
      ],
    } as unknown as ExtractionResult;

    // Act
    const figures = consistencyOf('set.pdf', result);

    // Assess
    expect(figures).toMatchObject({
      sheets: 4,
      numbered: 4,
      distinct: 3,
      titled: 3,
      numberedWithIndex: 4,
      inIndex: 3,
      indexAgree: 1,
      byConsensus: 0,
    });
  });
});
