import { describe, expect, it } from 'vitest';
import {
  addendumName,
  ExtractiveAnswerer,
  referencesOf,
} from '../../../functions/adapters/answerers/extractive-answerer.ts';
import type { Conversation, ReviewedSource } from '../../../functions/core/reviews/answerer.ts';

const source = (overrides: Partial<ReviewedSource> & { text: string }): ReviewedSource => ({
  sourceCatalogUri: `service://projects/prj_1/documents/doc_1/pages/${overrides.pageStart ?? 1}`,
  source: { type: 'doc', id: 'doc_1', label: overrides.fileName ?? 'doc.pdf' },
  documentId: 'doc_1',
  fileName: 'doc.pdf',
  classification: 'documents',
  pageStart: 1,
  pageEnd: 1,
  sheetNumber: null,
  artifact: null,
  passages: [{ text: overrides.text, pageNumber: 1, pageEnd: 1, box: null }],
  ...overrides,
});

const answer = async (question: string, sources: ReviewedSource[]) => {
  const conversation: Conversation = {
    question,
    filters: {},
    turn: 2,
    results: [
      { turn: 0, call: { name: 'search_sources', query: question, modes: ['exact', 'semantic'] }, hits: [] },
      { turn: 1, call: { name: 'review_sources', sourceCatalogUris: [] }, sources },
    ],
  };
  const deltas: string[] = [];
  const result = await new ExtractiveAnswerer().turn(
    conversation,
    async (delta) => void deltas.push(delta),
    false,
  );
  if (result.kind !== 'answer') throw new Error('expected an answer');
  return { ...result.answer, streamed: deltas.join('') };
};

describe('the extractive answerer', () => {
  it('names an addendum by its number and date, first, as governing', async () => {
    // Prepare
    const original = source({
      fileName: 'project-manual.pdf',
      text: 'C. The grease interceptor shall have a capacity of 3000 gallons.',
    });
    const addendum = source({
      fileName: 'addendum-04.pdf',
      classification: 'addenda',
      pageStart: 2,
      text: 'ADDENDUM NO. 4\nMarch 3, 2022\nItem 7. Revise the grease interceptor capacity to 750 gallons.',
    });
    // Act
    const result = await answer('What capacity is required for the grease interceptor?', [
      original,
      addendum,
    ]);
    // Assess
    expect(addendumName(addendum)).toBe('Addendum No. 4 (March 3, 2022)');
    expect(result.text.split('\n')[1]).toContain('Addendum No. 4 (March 3, 2022), which governs');
    expect(result.citations.map((citation) => citation.sourceCatalogUri)).toEqual([
      addendum.sourceCatalogUri,
      original.sourceCatalogUri,
    ]);
    expect(result.streamed).toBe(result.text);
  });

  it('needs a number for a quantity and abstains when the thing asked for is named nowhere', async () => {
    // Prepare
    const roof = source({
      text: 'The 10 psf includes the weight of the standing seam metal roof, insulation and lights.',
    });
    // Act
    const rValue = await answer('What R-value is required for the roof insulation?', [roof]);
    const howLong = await answer('How long must the roof insulation be protected?', [
      source({ text: 'Protect the roof insulation from weather at all times during construction.' }),
    ]);
    // Assess
    expect(rValue.citations).toEqual([]);
    expect(rValue.text).toMatch(/^I read 1 source of this project and none of them states an answer/);
    expect(howLong.citations).toEqual([]);
  });

  it('finds what a quoted addendum changes (the section it names) and quotes it beside, marked as changed', async () => {
    // Prepare
    const addendum = source({
      fileName: 'addendum-01.pdf',
      classification: 'addenda',
      text: 'ADDENDUM NO. 1\nDelete paragraph E of Section 00 21 13 which limits subcontracting to 40 percent of the work.',
    });
    const original = source({
      fileName: 'project-manual.pdf',
      pageStart: 5,
      text: 'E. Bidder shall not subcontract more than 40 percent of the work.',
    });
    const question = 'Is there a limit on how much of the work may be subcontracted?';
    const asked: Conversation = {
      question,
      filters: {},
      turn: 2,
      results: [
        {
          turn: 0,
          call: { name: 'search_sources', query: question, modes: ['exact', 'semantic'] },
          hits: [],
        },
        { turn: 1, call: { name: 'review_sources', sourceCatalogUris: [] }, sources: [addendum] },
      ],
    };
    const answerer = new ExtractiveAnswerer();
    const none = async () => undefined;
    // Act
    const search = await answerer.turn(asked, none, false);
    const hit = {
      sourceCatalogUri: original.sourceCatalogUri,
      type: 'specification',
      label: '00 21 13',
      fileName: 'project-manual.pdf',
      classification: null,
      pageNumber: 5,
      score: 1,
      matchedModes: ['lexical'],
      snippet: '',
    };
    const searched: Conversation = {
      ...asked,
      turn: 3,
      results: [
        ...asked.results,
        {
          turn: 2,
          call: { id: 'original:search:0', name: 'search_sources', query: '00 21 13', modes: ['exact'] },
          hits: [hit],
        },
      ],
    };
    const review = await answerer.turn(searched, none, false);
    const read: Conversation = {
      ...searched,
      turn: 4,
      results: [
        ...searched.results,
        {
          turn: 3,
          call: {
            id: 'original:review',
            name: 'review_sources',
            sourceCatalogUris: [original.sourceCatalogUri],
          },
          sources: [original],
        },
      ],
    };
    const final = await answerer.turn(read, none, false);
    // Assess
    expect(referencesOf('Delete paragraph E of Section 00 21 13; see sheet P3.01.')).toEqual([
      '00 21 13',
      'P3.01',
    ]);
    expect(search).toEqual({
      kind: 'tools',
      calls: [{ id: 'original:search:0', name: 'search_sources', query: '00 21 13', modes: ['exact'] }],
    });
    expect(review).toEqual({
      kind: 'tools',
      calls: [
        { id: 'original:review', name: 'review_sources', sourceCatalogUris: [original.sourceCatalogUri] },
      ],
    });
    expect(final.kind).toBe('answer');
    const lines = (final as { answer: { text: string } }).answer.text.split('\n');
    expect(lines[1]).toContain('Addendum No. 1, which governs');
    expect(lines[2]).toContain('Earlier document, changed by the addendum above');
    expect(lines[2]).toContain('Bidder shall not subcontract more than 40 percent of the work.');
  });
});
