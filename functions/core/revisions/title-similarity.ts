import { foldedWords } from './look-alikes.ts';

/** Words that join a title's terms without naming anything (`PLAN AND DETAILS`, `SECTIONS & ELEVATIONS`). */
const JOINING = new Set(['AND', 'OF', 'THE', 'AT', 'TO', 'FOR', 'IN', '&']);

const titleWords = (title: string): Set<string> =>
  new Set(foldedWords(title.replace(/&/g, ' ')).filter((word) => !JOINING.has(word)));

/**
 * 0..1 agreement of two sheet titles: the Dice coefficient of their words (OCR look-alikes folded, joining
 * words left out), so `FIRST FLOOR PLAN` and `FIRST FLOOR PLAN - REVISED` agree at 0.86 and a reworded title
 * keeps credit for the words it kept. Null when either title is absent or prints no word.
 */
export const titleSimilarity = (
  first: string | null | undefined,
  second: string | null | undefined,
): number | null => {
  if (!first || !second) return null;
  const a = titleWords(first);
  const b = titleWords(second);
  if (a.size === 0 || b.size === 0) return null;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return (2 * shared) / (a.size + b.size);
};
