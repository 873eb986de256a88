import { foldLookAlikes } from './look-alikes.ts';
import type { NumberAgreement } from './model.ts';

/** The number as printed: upper case, no spaces, every dash kind one hyphen (`a 101` and `A-101` differ). */
const printedKey = (sheetNumber: string): string =>
  sheetNumber
    .toUpperCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, '');

/**
 * The number with its separators dropped and OCR look-alikes folded: an NCS number is a discipline designator,
 * a sheet type digit and a sequence (`A-101`, `A101`, `A1.01`), and what a reading can get wrong is which
 * separator it saw and whether a character is the digit or the letter drawn like it (`A-1O1`, `5-101`).
 */
const foldedKey = (sheetNumber: string): string => foldLookAlikes(sheetNumber).replace(/[^A-Z0-9]/g, '');

/** How two sheets' numbers agree: equal as printed, equal once folded, different, or unknown (one is absent). */
export const sheetNumberAgreement = (
  first: string | null | undefined,
  second: string | null | undefined,
): NumberAgreement => {
  if (!first?.trim() || !second?.trim()) return 'unknown';
  if (printedKey(first) === printedKey(second)) return 'equal';
  const folded = foldedKey(first);
  return folded.length > 0 && folded === foldedKey(second) ? 'equalFolded' : 'different';
};
