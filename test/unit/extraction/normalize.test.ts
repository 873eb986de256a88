import { describe, expect, it } from 'vitest';
import {
  findTextReferences,
  parseNumberedEntries,
  parseScale,
} from '../../../functions/engine/assembly/normalize.ts';
import {
  disciplineOf,
  normalizeSheetNumber,
  parseSheetNumber,
} from '../../../functions/engine/drawings/sheet-number.ts';
import {
  findSpecReferences,
  normalizeSectionNumber,
} from '../../../functions/engine/specifications/spec-numbers.ts';

describe('normalizedData helpers', () => {
  it('normalizes section numbers to digit pairs and keeps 1995 numbers as printed', () => {
    expect(normalizeSectionNumber('092900')?.normalized).toBe('09 29 00');
    expect(normalizeSectionNumber('32 01 16.71')?.normalized).toBe('32 01 16.71');
    expect(normalizeSectionNumber('00 45 19.1')?.normalized).toBe('00 45 19.1');
    expect(normalizeSectionNumber('13210')).toEqual({
      normalized: '13210',
      asPrinted: '13210',
      format: 'masterformat1995',
    });
    expect(normalizeSectionNumber('1234')).toBeNull();
  });

  it('finds specification references and ignores phone numbers and dates', () => {
    const text =
      'Comply with SECTION 09 29 00 and Section 092900; see 03 30 00. Call 415 554 6000 or 415-554-6000 on 12/03/2020.';
    expect(findSpecReferences(text).map((r) => r.sectionNumber)).toEqual(['09 29 00', '03 30 00']);
  });

  it('finds sheet and detail references in text', () => {
    const refs = findTextReferences(
      'REFER TO 5/A-501. SEE DETAIL 3 ON S2.1 AND SEE SHEET M-201. SCALE 1/8 NOT A REF',
    );
    expect(refs.map((r) => [r.detail, r.sheetNormalized])).toEqual([
      ['3', 'S2.1'],
      ['5', 'A-501'],
      [null, 'M-201'],
    ]);
  });

  it('parses scales into ratios', () => {
    expect(parseScale('SCALE: 1/4" = 1\'-0"')).toEqual({ text: '1/4" = 1\'-0"', ratio: 1 / 48 });
    expect(parseScale('1" = 30\'-0"')?.ratio).toBeCloseTo(1 / 360);
    expect(parseScale('1 1/2" = 1\'-0"')?.ratio).toBeCloseTo(1.5 / 12);
    expect(parseScale('1:100')?.ratio).toBe(0.01);
    expect(parseScale('NTS')).toEqual({ text: 'NTS', ratio: null });
    expect(parseScale('no scale here')).toBeNull();
  });

  it('parses numbered entries with continuation lines', () => {
    expect(parseNumberedEntries(['1. FIRST NOTE', 'CONTINUES HERE.', 'A2 SECOND NOTE'])).toEqual([
      { key: '1', text: 'FIRST NOTE CONTINUES HERE.' },
      { key: 'A2', text: 'SECOND NOTE' },
    ]);
  });

  it('recognizes sheet numbers as printed and rejects look-alikes', () => {
    for (const n of [
      'A-101',
      'AF101',
      'A2.3',
      'E001',
      'C6',
      'CR-01',
      'SW-G1',
      'G-0',
      'M-501.1',
      'TCP: 032',
      'R\u20141',
    ]) {
      expect(parseSheetNumber(n), n).not.toBeNull();
    }
    for (const n of ['101', 'NO.1', 'W12', '3/4', 'TYP', 'ABCD-1234567'])
      expect(parseSheetNumber(n), n).toBeNull();
    expect(normalizeSheetNumber('a 101')).toBe('A101');
    expect(normalizeSheetNumber('R\u20141')).toBe('R-1');
  });

  it('maps prefixes to NCS designators, keeping set-specific prefixes', () => {
    expect(disciplineOf('AF')).toMatchObject({ code: 'A', printedPrefix: 'AF', setSpecific: false });
    expect(disciplineOf('CR')).toMatchObject({ code: 'C', printedPrefix: 'CR', setSpecific: true });
    expect(disciplineOf('R')).toMatchObject({ code: 'R', label: 'Resource' });
    expect(disciplineOf('R', new Set(['CR', 'SW', 'R']))).toMatchObject({
      code: 'C',
      printedPrefix: 'R',
      setSpecific: true,
    });
    expect(disciplineOf('FP')).toMatchObject({ code: 'F' });
    expect(disciplineOf('E')).toMatchObject({ code: 'E', label: 'Electrical' });
  });
});
