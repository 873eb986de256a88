import { describe, expect, it } from 'vitest';
import {
  abbreviates,
  definedExpansions,
  definedTerms,
  definedTermsFor,
} from '../../../functions/core/search/defined-terms.ts';

// Rows as a drawing set's abbreviation list prints them beside its general notes (two columns of pairs).
const LIST = [
  'A.  THESE DRAWINGS SHALL BE READ IN CONJUNCTION WITH  AFFL  ABOVE FINISHED FLOOR LEVEL',
  'DURING THE CONTRACT.  AG  AGRICULTURAL DRAIN PIPE  HS  HIGH STRENGTH',
  'PROCEEDING WITH THE WORK.  APPROX. APPROXIMATE',
  'DRAWING NOTES.  AS  AUSTRALIAN STANDARD  LG  LENGTH / LONG  BMT  BASE METAL THICKNESS',
  'SEE  SECTION 3  NOTES  NOT TO SCALE',
].join('\n');

describe("a project's own abbreviations", () => {
  it('are read from the rows of an abbreviation list, not from the notes beside it', () => {
    // Act
    const pairs = definedTerms(LIST).map((term) => `${term.abbreviation}=${term.meaning}`);

    // Assess
    expect(pairs).toEqual([
      'AFFL=ABOVE FINISHED FLOOR LEVEL',
      'AG=AGRICULTURAL DRAIN PIPE',
      'HS=HIGH STRENGTH',
      'APPROX.=APPROXIMATE',
      'AS=AUSTRALIAN STANDARD',
      'LG=LENGTH / LONG',
      'BMT=BASE METAL THICKNESS',
    ]);
  });

  it("are read from a specification's parenthesized definitions, either way round", () => {
    const text = 'Install the Cured-In-Place Liner (CIPL) as shown. Submit the TCP (traffic control plan).';

    const pairs = definedTerms(text).map((term) => `${term.abbreviation}=${term.meaning}`);

    expect(pairs).toEqual(['CIPL=Cured In Place Liner', 'TCP=traffic control plan']);
  });

  it('are made of their meaning’s letters in order, from its first letter', () => {
    expect(abbreviates('BPL', 'BASE PLATE')).toBe(true);
    expect(abbreviates('AGG.', 'AGGREGATE')).toBe(true);
    expect(abbreviates('LG', 'LENGTH / LONG')).toBe(true);
    // Not from the meaning's letters, or not from its first one.
    expect(abbreviates('NOTES', 'NOT TO SCALE')).toBe(false);
    expect(abbreviates('GC', 'CONTRACTOR GENERAL')).toBe(false);
    expect(abbreviates('CJ', 'SLAB CONTROL JOINT')).toBe(false);
  });

  it('expand a query in both directions, and a stop word only when written in capitals', () => {
    const terms = definedTerms(LIST);

    expect(definedExpansions('AFFL at the stair', terms)).toEqual({
      words: ['ABOVE FINISHED FLOOR LEVEL'],
      phrases: ['ABOVE FINISHED FLOOR LEVEL'],
      forms: [{ written: 'AFFL', other: 'ABOVE FINISHED FLOOR LEVEL' }],
    });
    expect(definedExpansions('base metal thickness of studs', terms).words).toEqual(['BMT']);
    expect(definedExpansions('welds as per drawings', terms).words).toEqual([]);
    expect(definedExpansions('concrete to AS 3600', terms).words).toEqual(['AUSTRALIAN STANDARD']);
  });

  it('are read for a query from the lines that hold one of its words, its abbreviations without their marks', () => {
    const list = `${LIST}\nHT  HIGH-TENSILE STEEL  M/A  MASONRY ANCHOR`;

    expect(definedTermsFor('AFFL at the stair', [list]).map((term) => term.abbreviation)).toEqual(['AFFL']);
    expect(definedTermsFor('M/A anchors', [list]).map((term) => term.abbreviation)).toEqual(['HT', 'M/A']);
    expect(definedTermsFor('base metal thickness', [list]).map((term) => term.meaning)).toContain(
      'BASE METAL THICKNESS',
    );
    expect(definedTermsFor('the of', [list])).toEqual([]);
  });
});
