import { describe, expect, it } from 'vitest';
import {
  laterPrinting,
  latestRevision,
  parseRevisionDate,
  parseRevisionMark,
  revisionRowRelation,
} from '../../../functions/core/revisions/revision-order.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const row = (mark: string, date: string | null = null, description: string | null = null) => ({
  mark,
  description,
  date,
});

describe('revision marks as revision blocks print them', () => {
  it.each([
    ['1', { series: '', value: 1 }],
    ['02', { series: '', value: 2 }],
    ['0', { series: '', value: 0 }],
    ['\u25B31', { series: '', value: 1 }],
    ['\u0394 3', { series: '', value: 3 }],
    ['REV 2', { series: '', value: 2 }],
    ['Rev. 4', { series: '', value: 4 }],
    ['NO. 3', { series: '', value: 3 }],
    ['#5', { series: '', value: 5 }],
    ['A', { series: 'letter', value: 1 }],
    ['REV. B', { series: 'letter', value: 2 }],
    ['AA', { series: 'letter', value: 27 }],
    ['P01', { series: 'P', value: 1 }],
    ['C02', { series: 'C', value: 2 }],
  ])('reads %s', (mark, expected) => {
    expect(parseRevisionMark(mark)).toEqual(expected);
  });

  it('reads no mark from a description or an empty cell', () => {
    expect(parseRevisionMark('ISSUED FOR BID')).toBeNull();
    expect(parseRevisionMark('')).toBeNull();
  });
});

describe('revision dates in US formats', () => {
  it.each([
    ['3/14/25', '2025-03-14'],
    ['03-14-2025', '2025-03-14'],
    ['3.14.2025', '2025-03-14'],
    ['07/6/2021', '2021-07-06'],
    ['MARCH 14, 2025', '2025-03-14'],
    ['Mar. 14 2025', '2025-03-14'],
    ['14 MARCH 2025', '2025-03-14'],
    ['2025-03-14', '2025-03-14'],
    ['28-04-16', '2016-04-28'],
    ['12/31/99', '1999-12-31'],
  ])('reads %s', (text, iso) => {
    expect(parseRevisionDate(text)).toBe(day(iso));
  });

  it('reads no date that cannot be one', () => {
    expect(parseRevisionDate('13/45/2020')).toBeNull();
    expect(parseRevisionDate('2/30/2024')).toBeNull();
    expect(parseRevisionDate('ISSUED FOR PERMIT')).toBeNull();
    expect(parseRevisionDate(null)).toBeNull();
  });
});

describe("a sheet's latest revision row", () => {
  it('is the latest by date, whatever the order the block lists its rows in', () => {
    const rows = [row('2', '05/01/2025'), row('3', '06/15/2025'), row('1', '02/03/2025')];
    expect(latestRevision(rows)?.mark).toBe('3');
  });

  it('is the highest mark of a series when the rows print no dates', () => {
    expect(latestRevision([row('B'), row('C'), row('A')])?.mark).toBe('C');
  });

  it('is the last row printed when nothing orders them (marks of two series, no dates)', () => {
    expect(latestRevision([row('P01'), row('C01')])?.mark).toBe('C01');
    expect(latestRevision([])).toBeNull();
  });
});

describe('which of two printings of a sheet is the later', () => {
  it('is the one whose revision rows extend the other', () => {
    // Prepare: the second printing adds row 2 to row 1; no dates, so only the rows can tell.
    const first = { revisions: [row('1', null, 'PERMIT')], uploadedAt: 2 };
    const second = { revisions: [row('1', null, 'PERMIT'), row('2', null, 'ADDENDUM')], uploadedAt: 1 };

    // Act
    const order = laterPrinting(first, second);

    // Assess: the rows decide, although the first was uploaded later.
    expect(order).toEqual({ later: 'second', by: 'revisionRows' });
    expect(laterPrinting(second, first)).toEqual({ later: 'first', by: 'revisionRows' });
  });

  it('is the one with the later latest date when neither block extends the other', () => {
    const first = { revisions: [row('\u25B32', '04/02/2025')], uploadedAt: 2 };
    const second = { revisions: [row('\u25B31', '03/14/2025')], uploadedAt: 1 };
    expect(laterPrinting(first, second)).toEqual({ later: 'first', by: 'revisionDate' });
  });

  it('is the one with the higher mark of the same series when dates do not tell', () => {
    const first = { revisions: [row('REV C', 'MAY 2025')], uploadedAt: 1 };
    const second = { revisions: [row('REV B', 'MAY 2025')], uploadedAt: 2 };
    expect(laterPrinting(first, second)).toEqual({ later: 'first', by: 'revisionMark' });
  });

  it('is the later upload when the rows cannot tell (marks of two series, no dates, or no rows)', () => {
    expect(
      laterPrinting({ revisions: [row('A')], uploadedAt: 1 }, { revisions: [row('0')], uploadedAt: 2 }),
    ).toEqual({ later: 'second', by: 'uploadOrder' });
    expect(laterPrinting({ revisions: [], uploadedAt: 5 }, { revisions: [], uploadedAt: 3 })).toEqual({
      later: 'first',
      by: 'uploadOrder',
    });
  });
});

describe('how a newer printing’s revision rows relate to an older one', () => {
  it('extends, matches, lacks rows, or cannot tell', () => {
    const issue = row('1', '02/03/2025', 'ISSUED FOR PERMIT');
    const revision = row('\u25B32', '03/14/2025', 'ADDENDUM 2');
    expect(revisionRowRelation([issue], [issue, revision])).toBe('extends');
    expect(revisionRowRelation([], [issue])).toBe('extends');
    expect(revisionRowRelation([issue], [row('REV 1', '2/3/25', 'ISSUED FOR PERMIT')])).toBe('same');
    expect(revisionRowRelation([issue, revision], [issue])).toBe('lacksOldRows');
    expect(revisionRowRelation([], [])).toBe('unknown');
  });
});
