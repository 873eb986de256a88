import { describe, expect, it } from 'vitest';
import { findViews } from '../../../functions/engine/drawings/views.ts';
import { buildLines } from '../../../functions/engine/layout.ts';
import { ocrWordAt } from './fixtures.ts';

describe('view titles', () => {
  it('takes a title over a SCALE label whose value OCR lost, as over a full scale line', () => {
    // Prepare: `PLAN` over `SCALE:` (its `1"=30'` not read), `PROFILE "A"` over `SCALE: HORIZ`, `DETAIL 4` over
    // `SCALE: 1"=10'`, and `GENERAL NOTES` over `SCALE BAR SHOWN` (no scale label: a note about a scale bar).
    const words = [
      ocrWordAt('PLAN', 1024, 710, 18),
      ocrWordAt('SCALE:', 1023, 741, 9),
      ocrWordAt('PROFILE', 1857, 572, 20),
      ocrWordAt('"A"', 1945, 572, 20),
      ocrWordAt('SCALE:', 1856, 602, 9),
      ocrWordAt('HORIZ', 1895, 602, 9),
      ocrWordAt('DETAIL', 300, 300, 18),
      ocrWordAt('4', 375, 300, 18),
      ocrWordAt('SCALE:', 300, 330, 9),
      ocrWordAt('1"=10\'', 340, 330, 9),
      ocrWordAt('GENERAL', 600, 100, 18),
      ocrWordAt('NOTES', 690, 100, 18),
      ocrWordAt('SCALE', 600, 130, 9),
      ocrWordAt('BAR', 635, 130, 9),
      ocrWordAt('SHOWN', 660, 130, 9),
    ];

    // Act
    const views = findViews(buildLines(words, { gapFactor: 1.5 }), words, null);

    // Assess: three views; the scale kept where it was read.
    expect(views.map((view) => view.viewTitle).sort()).toEqual(['DETAIL 4', 'PLAN', 'PROFILE "A"']);
    expect(views.find((view) => view.viewTitle === 'DETAIL 4')?.scaleText).toBe('1"=10\'');
    expect(views.find((view) => view.viewTitle === 'PLAN')?.scaleText).toBeNull();
  });
});
