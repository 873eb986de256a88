import { describe, expect, it } from 'vitest';
import {
  contentFingerprint,
  contentSimilarity,
  FINGERPRINT_SIZE,
  setShingles,
} from '../../../functions/core/revisions/content-fingerprint.ts';
import type { ContentFingerprint } from '../../../functions/core/revisions/model.ts';
import { generalNoteLines, planLines, seeded, titleBlockLines } from './drawing-sets.ts';

/** Two sheets compared as a held sheet and an uploaded one, each alone in its set unless `siblings` join. */
const similarity = (
  first: ContentFingerprint,
  second: ContentFingerprint,
  siblings: { held?: ContentFingerprint[]; uploaded?: ContentFingerprint[] } = {},
) =>
  contentSimilarity(
    { fingerprint: first, set: setShingles([first, ...(siblings.held ?? [])]) },
    { fingerprint: second, set: setShingles([second, ...(siblings.uploaded ?? [])]) },
  );

describe("a drawing sheet's content fingerprint", () => {
  it('is the same for the same lines in another order (text moved on the sheet)', () => {
    const lines = planLines(seeded(1));
    expect(contentFingerprint([...lines].reverse())).toEqual(contentFingerprint(lines));
  });

  it('reads OCR look-alikes as one word (O for 0, l for 1), so a scan of the sheet fingerprints as its text', () => {
    expect(contentFingerprint(['ROOM 101 CLEAR 10\'-0"'])).toEqual(
      contentFingerprint(['R00M l0l CLEAR 1O\'-O"']),
    );
  });

  it('keeps at most its size of hashes, ascending, and counts every shingle', () => {
    const lines = Array.from(
      { length: 400 },
      (_, index) => `NOTE ${index} PROVIDE SEALANT AT JOINT ${index * 7}`,
    );
    const fingerprint = contentFingerprint(lines);
    // Three shingles of each line are its own (they hold its numbers); `PROVIDE SEALANT AT` and
    // `SEALANT AT JOINT` are every line's.
    expect(fingerprint.shingleCount).toBe(400 * 3 + 2);
    expect(fingerprint.hashes).toHaveLength(FINGERPRINT_SIZE);
    expect(fingerprint.hashes).toEqual([...fingerprint.hashes].sort((a, b) => a - b));
  });
});

describe('the content similarity of two sheets', () => {
  it('estimates the share of shingles two large sheets have in common from their samples', () => {
    // Prepare: 3,000 shingles each, 2,000 of them shared: Jaccard 2000 / 4000 = 0.5.
    const line = (index: number) => `KEYNOTE ${index}`;
    const shared = Array.from({ length: 2000 }, (_, index) => line(index));
    const first = contentFingerprint([...shared, ...Array.from({ length: 1000 }, (_, i) => line(5000 + i))]);
    const second = contentFingerprint([...shared, ...Array.from({ length: 1000 }, (_, i) => line(9000 + i))]);

    // Act
    const estimate = similarity(first, second);

    // Assess: a 512-hash sample estimates it within a few hundredths.
    expect(first.hashes).toHaveLength(FINGERPRINT_SIZE);
    expect(estimate).toBeGreaterThan(0.44);
    expect(estimate).toBeLessThan(0.56);
  });

  it('counts what every sheet of the set prints (title block, general notes) for nothing', () => {
    // Prepare: four sheets of one set, each with its own plan text under the same title block and notes.
    const random = seeded(2);
    const sheets = Array.from({ length: 4 }, () =>
      contentFingerprint([...titleBlockLines, ...generalNoteLines, ...planLines(random)]),
    );
    const [first, second, third, fourth] = sheets as [ContentFingerprint, ...ContentFingerprint[]];

    // Act: the first against the second, each with its siblings in its set, and alone.
    const inTheirSets = similarity(first, defined(second), {
      held: [defined(third)],
      uploaded: [defined(fourth)],
    });
    const alone = similarity(first, defined(second));

    // Assess: alone, the title block and notes make them look alike; in their sets they share nearly nothing.
    expect(alone).toBeGreaterThan(0.1);
    expect(inTheirSets).toBeLessThan(0.05);
  });

  it('is 1 for a sheet and its reprint, and null for a sheet that printed almost nothing', () => {
    const lines = planLines(seeded(3));
    expect(similarity(contentFingerprint(lines), contentFingerprint(lines))).toBe(1);
    expect(similarity(contentFingerprint(['A-101']), contentFingerprint(lines))).toBeNull();
  });
});

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a sheet');
  return value;
}
