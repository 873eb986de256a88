import { describe, expect, it } from 'vitest';
import { matchRevisedSheets } from '../../../functions/core/revisions/match-revised-sheets.ts';
import { defined } from '../../defined.ts';
import { type DrawnSheet, drawingSet, forMatching, planLines, revise, seeded } from './drawing-sets.ts';

const held = (sheets: DrawnSheet[]) => sheets.map((sheet, index) => forMatching(sheet, `held-${index}`));
const uploaded = (sheets: DrawnSheet[]) => sheets.map((sheet, index) => forMatching(sheet, `new-${index}`));

describe('matching a revised drawing sheet to the sheet it revises', () => {
  it('matches a revision under another file name and another title, by number, title and content', () => {
    // Prepare: the project holds A-101..A-106; A-103 comes back renamed and retitled, its text edited.
    const set = drawingSet(6, 1);
    const revised = { ...revise(defined(set[2], 'A-103'), 11), title: 'LEVEL 3 FLOOR PLAN AND DETAILS' };

    // Act
    const [match] = matchRevisedSheets({ held: held(set), uploaded: uploaded([revised]) });

    // Assess
    expect(match?.previousSheetId).toBe('held-2');
    expect(match?.confidence).toBeGreaterThan(0.95);
    expect(match?.evidence).toMatchObject({
      number: 'equal',
      revisionRows: 'extends',
      sameFileName: false,
      samePageSize: true,
    });
    expect(match?.evidence?.titleSimilarity).toBeGreaterThan(0.7);
    expect(match?.evidence?.titleSimilarity).toBeLessThan(1);
    expect(match?.evidence?.contentSimilarity).toBeGreaterThan(0.5);
  });

  it('matches a number read with OCR look-alikes (A-1O3 for A-103) once they are folded', () => {
    const set = drawingSet(6, 2);
    const revised = { ...revise(defined(set[2], 'A-103'), 12), number: 'A-1O3', title: null };

    const [match] = matchRevisedSheets({ held: held(set), uploaded: uploaded([revised]) });

    expect(match?.previousSheetId).toBe('held-2');
    expect(match?.evidence?.number).toBe('equalFolded');
    expect(match?.evidence?.titleSimilarity).toBeNull();
  });

  it('matches a sheet whose number was not read by its content alone', () => {
    const set = drawingSet(6, 3);
    const revised = { ...revise(defined(set[4], 'A-105'), 13), number: null };

    const [match] = matchRevisedSheets({ held: held(set), uploaded: uploaded([revised]) });

    expect(match?.previousSheetId).toBe('held-4');
    expect(match?.evidence?.number).toBe('unknown');
    expect(match?.confidence).toBeGreaterThan(0.9);
  });

  it('does not match a new sheet of the set to its look-alike siblings (same title block, notes, kind of plan)', () => {
    // Prepare: the project holds A-101..A-105; the upload adds A-106, which the project never held.
    const set = drawingSet(6, 4);
    const added = defined(set[5], 'A-106');

    // Act
    const [match] = matchRevisedSheets({ held: held(set.slice(0, 5)), uploaded: uploaded([added]) });

    // Assess: its best candidate shares the set's text, but no more than two sheets of the set share.
    expect(match?.previousSheetId).toBeNull();
    expect(match?.confidence).toBeGreaterThan(0.99);
    expect(match?.evidence?.number).toBe('different');
    expect(defined(match?.evidence?.contentSimilarity, 'content similarity')).toBeLessThan(0.3);
  });

  it('does not match a new sheet without a number to a sibling it only resembles as the set resembles itself', () => {
    const set = drawingSet(6, 5);
    const added = { ...defined(set[5], 'A-106'), number: null, title: null };

    const [match] = matchRevisedSheets({ held: held(set.slice(0, 5)), uploaded: uploaded([added]) });

    expect(match?.previousSheetId).toBeNull();
    expect(match?.evidence?.number).toBe('unknown');
  });

  it('assigns a whole reissued set one to one: each sheet to its own, the added one to none', () => {
    // Prepare: 12 held sheets; the reissue revises four, keeps seven, drops one, adds one, in another order.
    const set = drawingSet(13, 6);
    const heldSheets = set.slice(0, 12);
    const reissue = [
      ...heldSheets
        .slice(0, 11)
        .map((sheet, index) => (index % 3 === 0 ? revise(sheet, 100 + index) : sheet)),
      defined(set[12], 'A-113'),
    ].reverse();

    // Act
    const matches = matchRevisedSheets({ held: held(heldSheets), uploaded: uploaded(reissue) });

    // Assess
    const expected = reissue.map((sheet) => {
      const at = heldSheets.findIndex((candidate) => candidate.number === sheet.number);
      return at >= 0 ? `held-${at}` : null;
    });
    expect(matches.map((match) => match.previousSheetId)).toEqual(expected);
    expect(expected.filter((id) => id === null)).toHaveLength(1);
    const taken = matches.flatMap((match) => (match.previousSheetId ? [match.previousSheetId] : []));
    expect(new Set(taken).size).toBe(taken.length);
  });

  it("does not let a number read unsurely (a callout's, A-102) outweigh the content of the sheet it revises", () => {
    // Prepare: A-103 revised; its number field went unread and the reading took a callout's A-102.
    const set = drawingSet(6, 10);
    const revised = { ...revise(defined(set[2], 'A-103'), 14), number: 'A-102', numberConfidence: 0.15 };

    // Act
    const [match] = matchRevisedSheets({ held: held(set), uploaded: uploaded([revised]) });

    // Assess
    expect(match?.previousSheetId).toBe('held-2');
    expect(match?.evidence).toMatchObject({ number: 'different', numberConfidence: 0.15 });
  });

  it('matches a sheet whose distinctive text is nearly all shared although its number reads otherwise', () => {
    // Prepare: A-104 reprinted with one line added; its number read A-10 with middling confidence.
    const set = drawingSet(6, 11);
    const sheet = defined(set[3], 'A-104');
    const reprinted = {
      ...sheet,
      number: 'A-10',
      numberConfidence: 0.45,
      lines: [...sheet.lines, 'SEE A-501'],
    };

    // Act
    const [match] = matchRevisedSheets({ held: held(set), uploaded: uploaded([reprinted]) });

    // Assess
    expect(match?.previousSheetId).toBe('held-3');
    expect(defined(match?.evidence?.contentSimilarity, 'content similarity')).toBeGreaterThan(0.9);
  });

  it('does not match an unnumbered sheet of another discipline whose text is its own', () => {
    const random = seeded(80);
    const set = drawingSet(3, 8);
    const structural: DrawnSheet = {
      number: null,
      title: 'FOUNDATION PLAN',
      discipline: 'S',
      revisions: [],
      fileName: 'structural.pdf',
      lines: planLines(random),
    };

    const [match] = matchRevisedSheets({ held: held(set), uploaded: uploaded([structural]) });

    expect(match?.previousSheetId).toBeNull();
    expect(match?.evidence?.sameDiscipline).toBe(false);
  });

  it('says none with no evidence when the project holds no sheet', () => {
    const [match] = matchRevisedSheets({ held: [], uploaded: uploaded(drawingSet(1, 9)) });

    expect(match).toEqual({ sheetId: 'new-0', previousSheetId: null, confidence: 1, evidence: null });
  });
});
