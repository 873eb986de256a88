import { describe, expect, it } from 'vitest';
import plainLanguage from '../../../functions/core/search/plain-language.json' with { type: 'json' };
import {
  expandQuery,
  queryEmbeddingText,
  specificTradePhrases,
} from '../../../functions/core/search/query-expansion.ts';
import { lexicalQueries, wordPairs } from '../../../functions/core/search/search-sources.ts';

describe('query expansion', () => {
  it('adds the trade terms of the plain words a question uses', () => {
    expect(expandQuery('how long are we on the hook for defects')).toEqual(
      expect.arrayContaining(['warranty', 'correction period']),
    );
    expect(expandQuery('what do we owe each day late')).toContain('liquidated damages');
    expect(expandQuery('a walkway for people on foot')).toEqual(
      expect.arrayContaining(['pedestrian', 'path of travel']),
    );
    expect(expandQuery('how strong is the concrete')).toContain('compressive strength');
  });

  it('matches on stems, so another form of a plain word expands the same way', () => {
    expect(expandQuery('who is paying for it')).toEqual(expandQuery('who pays for it'));
  });

  it('prefers the longest plain phrase, so one word is not expanded twice', () => {
    // "asphalt topping" is one phrase; "topping" alone is another row's plain word.
    const terms = expandQuery('asphalt topping');
    expect(terms).toContain('wearing surface');
    expect(new Set(terms).size).toBe(terms.length);
  });

  it('leaves identifier and trade-term queries as they are', () => {
    expect(expandQuery('A-501')).toEqual([]);
    expect(expandQuery('07 55 00')).toEqual([]);
    expect(queryEmbeddingText('section 13210')).toBe('section 13210');
  });

  it('searches the multi-word trade terms of a multi-word plain phrase as phrases too', () => {
    expect(specificTradePhrases('what do we owe each day late')).toContain('liquidated damages');
    // A single plain word (`bid`) is too loose a witness for phrases.
    expect(specificTradePhrases('ShareFile bid submission')).toEqual([]);
    const { lexicalQuery } = lexicalQueries('what do we owe each day late', 0.5, 12);
    expect(lexicalQuery.optionalPhrases).toContainEqual(['liquid', 'damag']);
  });

  it('embeds a question with its expansion', () => {
    expect(queryEmbeddingText('who pays for the permit')).toMatch(/^who pays for the permit\n.*permit fees/);
  });

  it('is a versioned table of general rows, each with plain words and trade terms', () => {
    expect(plainLanguage.version).toBeGreaterThanOrEqual(1);
    expect(plainLanguage.rows.length).toBeGreaterThan(100);
    for (const row of plainLanguage.rows) {
      expect(row.plain.length).toBeGreaterThan(0);
      expect(row.trade.length).toBeGreaterThan(0);
    }
  });
});

describe('the lexical queries of a search', () => {
  it('carry the expansion at its weight, beside the query’s own terms', () => {
    const { lexicalQuery } = lexicalQueries('who pays for the permit', 0.5, 12);
    expect(lexicalQuery.terms).toEqual(expect.arrayContaining(['pai', 'permit']));
    expect(lexicalQuery.expansion).toEqual(expect.arrayContaining(['fee']));
    expect(lexicalQuery.expansion).not.toContain('permit');
    expect(lexicalQuery.expansionWeight).toBe(0.5);
  });

  it('search the query’s consecutive words as optional phrases, words only, as many pairs as asked', () => {
    const { lexicalQuery } = lexicalQueries('Wilde Ave & Brussels St curb ramp work plan', 0.5, 6);
    expect(lexicalQuery.optionalPhrases).toEqual([
      ['wild', 'av'],
      ['av', 'brussel'],
      ['brussel', 'st'],
      ['st', 'curb'],
      ['curb', 'ramp'],
      ['ramp', 'work'],
    ]);
    expect(wordPairs(['a1*', 'sheet', '=gwb', 'gypsum', 'board'])).toEqual([
      ['sheet', 'gypsum'],
      ['gypsum', 'board'],
    ]);
    expect(lexicalQueries('curb ramp work plan', 0, 0).lexicalQuery.optionalPhrases).toEqual([]);
  });

  it('rank by a sheet or section number only when the query has other words beside it', () => {
    expect(
      lexicalQueries('how do the two versions of 31 23 34 differ on trench backfill', 0.5, 12)
        .headIdentifiers,
    ).toEqual(['312334']);
    expect(lexicalQueries('A-101', 0.5, 12).headIdentifiers).toEqual([]);
    expect(lexicalQueries('sheet E-301', 0.5, 12).headIdentifiers).toEqual([]);
  });
});
