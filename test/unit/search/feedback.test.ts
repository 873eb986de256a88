import { describe, expect, it } from 'vitest';
import { feedbackTerms } from '../../../functions/core/search/feedback.ts';
import type { IndexHit } from '../../../functions/core/search/ports.ts';

const hit = (sourceUri: string, text: string): IndexHit =>
  ({ score: 1, passage: { sourceUri, head: '', text } }) as unknown as IndexHit;

describe('pseudo-relevance feedback', () => {
  it("gives the words most of a query's best sources share, not the query's own", () => {
    // Prepare: five sources about a bus pad; three name the compressive strength, three curing, three
    // traffic, two concrete.
    const hits = [
      hit('s1', 'Bus pad concrete: compressive strength 2,500 psi before traffic.'),
      hit('s1', 'Bus pad concrete: compressive strength again (same source, counted once).'),
      hit('s2', 'No bus traffic until the compressive strength test passes.'),
      hit('s3', 'Concrete compressive strength per section 32 13 13; curing seven days.'),
      hit('s4', 'Bus stop slab curing compound.'),
      hit('s5', 'Bus shelter footing curing and traffic control.'),
    ];

    // Act
    const terms = feedbackTerms(hits, ['bus', 'slab'], 3);

    // Assess: shared by three of the five sources or more (not `concrete`: two), the first three of those.
    expect(terms).toEqual(['compress', 'cure', 'strength']);
  });

  it('gives nothing from fewer than five sources, or when turned off', () => {
    const few = [hit('s1', 'compressive strength'), hit('s2', 'compressive strength')];

    expect(feedbackTerms(few, [], 5)).toEqual([]);
    expect(feedbackTerms(few, [], 0)).toEqual([]);
  });
});
