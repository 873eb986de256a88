import { describe, expect, it } from 'vitest';
import { fileNameWords, namedFiles } from '../../../functions/core/search/named-files.ts';

const files = [
  'camilla-gymnasium_addendum-01.pdf',
  'camilla-gymnasium_addendum-04.pdf',
  'ochlocknee-water-tank_addendum-01.pdf',
  'paul-ave-pavement-sewer_drawings.pdf',
  'paul-ave-pavement-sewer_project-manual.pdf',
  'renovation-54_traffic-control-plan-TCP-031.pdf',
  'renovation-54_traffic-control-plan-TCP-032.pdf',
  'bldg28_finish-plans_drawings.pdf',
].map((fileName, index) => ({ fileId: `fil_${index}`, fileName }));
const named = (query: string) =>
  namedFiles(query, files).map((fileId) => files.find((file) => file.fileId === fileId)?.fileName);

describe('files a query names', () => {
  it('finds the job a question names, by a word or the prefix of one', () => {
    expect(named('who pays for the building permit on the gym job')).toEqual([
      'camilla-gymnasium_addendum-01.pdf',
      'camilla-gymnasium_addendum-04.pdf',
    ]);
    expect(named('liquidated damages on Paul Ave')).toEqual([
      'paul-ave-pavement-sewer_drawings.pdf',
      'paul-ave-pavement-sewer_project-manual.pdf',
    ]);
  });

  it('keeps the files with the most matched words (a number narrows, alone it names nothing)', () => {
    expect(named('what did the gymnasium addendum 1 change')).toEqual(['camilla-gymnasium_addendum-01.pdf']);
    expect(named('traffic control plan TCP-031 notes')).toEqual([
      'renovation-54_traffic-control-plan-TCP-031.pdf',
    ]);
    expect(named('section 31 23 34')).toEqual([]);
    expect(named('Wilde Ave & Brussels St curb ramp')).toEqual([]);
  });

  it('is not named by words that say what kind of file it is, or that most files share', () => {
    expect(named('styrene mitigation plan')).toEqual([]);
    expect(named('drawings of the project manual')).toEqual([]);
    expect(
      namedFiles('sewer', [
        { fileId: 'a', fileName: 'sewer-a.pdf' },
        { fileId: 'b', fileName: 'sewer-b.pdf' },
      ]),
    ).toEqual([]);
  });

  it('narrows the named files by the kind of file the text says, and names by two short words', () => {
    const paving = [
      { fileId: 'manual', fileName: 'elm-st-paving_project-manual.pdf' },
      { fileId: 'drawings', fileName: 'elm-st-paving_drawings.pdf' },
      { fileId: 'addendum', fileName: 'city-hall_addendum-02.pdf' },
    ];
    expect(namedFiles('the base course on the Elm St paving job', paving)).toEqual(['manual', 'drawings']);
    expect(namedFiles('How thick is the base on the Elm St drawings?', paving)).toEqual(['drawings']);
    expect(namedFiles('which drawings show the base?', paving)).toEqual([]);
  });

  it('names nothing in a project of one file', () => {
    expect(namedFiles('gymnasium', [files[0] as { fileId: string; fileName: string }])).toEqual([]);
  });

  it('splits a file name into its words', () => {
    expect(fileNameWords('sfpw-2977J_paul-ave.v2.pdf')).toBe('sfpw 2977J paul ave v2');
  });
});
