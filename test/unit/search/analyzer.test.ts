import { describe, expect, it } from 'vitest';
import { ANALYZER_VERSION, analyzeQuery, analyzeText } from '../../../functions/core/search/analyzer.ts';
import terms from '../../../functions/core/search/construction-terms.json' with { type: 'json' };

const tokens = (text: string) => analyzeText(text).split(' ');

describe('the construction-aware analyzer', () => {
  it('writes every form of a sheet number as one token', () => {
    for (const form of ['A-101', 'A101', 'A 101', 'A.101', 'a-101']) expect(tokens(form)).toContain('a101');
    // Leading zeros of the number do not matter: CR-05 = CR-5.
    expect(tokens('CR-05')).toContain('cr5');
    expect(analyzeQuery('sheet CR-5').terms).toContain('cr5');
    // Letter-number-letter forms: SW-G1 = SW G1, P1.02A.
    expect(tokens('SW-G1')).toContain('swg1');
    expect(analyzeQuery('SW G1').terms).toContain('swg1');
    expect(tokens('P1.02A')).toContain('p1.02a');
  });

  it("reads OCR's confusions inside a sheet number as the digits they stand for", () => {
    // Prepare: numbers as OCR misreads them (O for 0, l or I for 1, S for 5 between digits).
    const misread = ['A-1O1', 'E-3l0', 'C-2S1', 'M-2O1.1'];

    // Act
    const read = misread.map((form) => analyzeQuery(form).identifiers[0]);

    // Assess: the same tokens as the numbers printed right, on both sides of the index.
    expect(read).toEqual(['a101', 'e310', 'c251', 'm201.1']);
    expect(tokens('SHEET A-1O1 FLOOR PLAN')).toContain('a101');
    // A trailing letter is a suffix, a number without a digit is a word, a word is a word.
    expect(analyzeQuery('A-1B').identifiers).toEqual(['a1b']);
    expect(analyzeQuery('CR-S SOIL').identifiers).toEqual([]);
  });

  it("reads a sheet's place in its set as one token, and a bare number of five digits or more as a number the query writes", () => {
    expect(tokens('SHEET: 16  OF  23')).toContain('16of23');
    expect(analyzeQuery('sheet 16 of 23').identifiers).toEqual(['16of23']);
    expect(analyzeQuery('std plan 87187 catch basin').identifiers).toEqual(['87187']);
    expect(analyzeQuery('detail 12 on the plan').identifiers).toEqual([]);
  });

  it('reads a number with thousands separators as its digits too', () => {
    expect(tokens('STANDARD PLAN 87,187')).toEqual(expect.arrayContaining(['87', '187', '87187']));
    expect(analyzeQuery('std plan 87187').terms).toContain('87187');
    expect(tokens('AREA 1,200 SF')).toContain('1200');
    // A decimal or a list of numbers is not one number.
    expect(tokens('0.5,1')).not.toContain('051');
  });

  it('emits prefix tokens of identifiers, so A-5 finds the A-5xx sheets', () => {
    expect(tokens('A-501')).toEqual(expect.arrayContaining(['a5*', 'a50*']));
    expect(analyzeQuery('A-5*').terms).toContain('a5*');
  });

  it('writes every form of a section number as one token', () => {
    for (const form of ['07 55 00', '075500', '07-55-00', 'Section 07 55 00', '07.55.00'])
      expect(tokens(form)).toContain('075500');
    expect(tokens('33 01 30.73')).toEqual(expect.arrayContaining(['33013073', '330130']));
    // 1995 five-digit numbers stay as they are.
    expect(tokens('Section 13210')).toContain('13210');
  });

  it('reads detail references, bar sizes, dimensions and dotted abbreviations', () => {
    expect(tokens('SEE DETAIL 5/A-501')).toEqual(expect.arrayContaining(['5/a501', 'a501']));
    expect(tokens('#4 @ 12" O.C.')).toEqual(expect.arrayContaining(['#4', '12in', 'oc', '=oc']));
    expect(tokens("5' WIDE")).toContain('5ft');
    expect(tokens('N.T.S.')).toContain('nts');
  });

  it('meets abbreviations and their meanings on one concept token', () => {
    for (const form of ['GWB', 'gypsum board', 'GYPSUM WALLBOARD', 'drywall'])
      expect(tokens(form)).toContain('=gwb');
    expect(tokens('VCT-1 VINYL COMPOSITION TILE')).toContain('=vct');
    expect(tokens('rooftop unit')).toContain('=rtu');
  });

  it('maps a MasterFormat title to its number in queries only', () => {
    expect(analyzeQuery('grouting').terms).toContain('036000');
    expect(tokens('grouting')).not.toContain('036000');
  });

  it('stems words, folds accents and drops stop words', () => {
    expect(tokens('The walls of these rooms')).toEqual(['wall', 'room', '=rm']);
    expect(tokens('Café')).toEqual(['cafe']);
  });

  it('meets irregular forms on their base, and leaves construction nouns alone', () => {
    // `paid` and `pays` stem apart in Porter; the question's `pays` must find the answer's `paid`.
    expect(tokens('paid by the Owner')).toContain(analyzeQuery('who pays').terms[0]);
    expect(tokens('5 linear feet')).toContain('foot');
    expect(tokens('built')).toEqual(tokens('build'));
    // Words that are also trade nouns keep their meaning.
    for (const noun of ['saw', 'ground', 'bore', 'found']) expect(tokens(noun)).toEqual([noun]);
  });

  it('keeps quoted phrases as phrases and quotes that are inch marks as units', () => {
    const query = analyzeQuery('"roof edge" flashing 12" wide');
    expect(query.phrases).toEqual([['roof', 'edg']]);
    expect(query.terms).toEqual(expect.arrayContaining(['roof', 'edg', 'flash', '12in']));
  });

  it('lists identifiers written in a query, not the numbers of the titles it names', () => {
    expect(analyzeQuery('sheet E-301 and section 09 29 00').identifiers).toEqual(
      expect.arrayContaining(['e301', '092900']),
    );
    expect(analyzeQuery('31 23 34 trench backfill').identifiers).toEqual(['312334']);
    expect(analyzeQuery('31 23 34 trench backfill').terms).toContain('312333');
    expect(analyzeQuery('grouting 03 60 00').identifiers).toEqual(['036000']);
  });

  it('versions itself with its data file, which holds several hundred terms', () => {
    expect(ANALYZER_VERSION).toContain(`terms-${terms.version}`);
    expect(terms.abbreviations.length + terms.masterformat.length).toBeGreaterThan(400);
    for (const row of terms.abbreviations) expect(row.length).toBeGreaterThanOrEqual(2);
  });
});

describe('snippets', () => {
  it('highlight the identifiers the query writes however they are printed, and the meanings of its words', async () => {
    const { snippetOf } = await import('../../../functions/core/search/search-sources.ts');
    const text = 'SEE SHEET CR-05 AND A-101. PROVIDE GYPSUM BOARD AT ALL WALLS.';

    const snippet = snippetOf(text, ['gwb', 'gypsum', 'board'], 240, ['cr5', 'a101']);

    expect(snippet).toBe('SEE SHEET **CR-05** AND **A-101.** PROVIDE **GYPSUM** **BOARD** AT ALL WALLS.');
  });

  it('show the best window of the passage with the query words, not its stop words, highlighted', async () => {
    const { snippetOf } = await import('../../../functions/core/search/search-sources.ts');
    const text = `${'filler words here '.repeat(40)}the permit fees are paid by the contractor ${'more filler '.repeat(40)}`;
    const snippet = snippetOf(text, ['who', 'pays', 'the', 'permit', 'fees']);
    expect(snippet).toContain('**permit**');
    expect(snippet).toContain('**fees**');
    expect(snippet).not.toContain('**the**');
    expect(snippet.startsWith('… ')).toBe(true);
    expect(snippet.length).toBeLessThan(300);
  });

  it('never highlight a stop word of the passage, even one a query word starts with', async () => {
    const { snippetOf } = await import('../../../functions/core/search/search-sources.ts');
    const snippet = snippetOf('signs are uploaded to the tow-away database', ['tow', 'away', 'upload']);
    expect(snippet).toBe('signs are **uploaded** to the **tow-away** database');
  });
});

describe('project name matching', () => {
  it('matches every query word as a prefix of a name word, ignoring case and accents', async () => {
    const { nameMatches } = await import('../../../functions/core/search/search-projects.ts');
    expect(nameMatches('Élan Gymnasium Renovation', 'elan gym')).toBe(true);
    expect(nameMatches('Élan Gymnasium Renovation', 'RENOV')).toBe(true);
    expect(nameMatches('Élan Gymnasium Renovation', 'gym pool')).toBe(false);
    expect(nameMatches('Élan Gymnasium Renovation', 'nasium')).toBe(false);
  });
});
