/**
 * normalizedData (schemaVersion 1): what a program wants from a region without parsing its text.
 */

import { normalizeSheetNumber, parseSheetNumber } from '../drawings/sheet-number.ts';
import { type Box, toDisplayBox, type Word } from '../geometry.ts';
import {
  type Keynote,
  NORMALIZED_DATA_SCHEMA_VERSION,
  type NormalizedData,
  type Revision,
  type Scale,
  type Schedule,
  type SheetReference,
} from '../model.ts';
import { findSpecReferences } from '../specifications/spec-numbers.ts';

export const emptyNormalizedData = (): NormalizedData => ({
  schemaVersion: NORMALIZED_DATA_SCHEMA_VERSION,
  sheetNumber: null,
  viewNumber: null,
  viewTitle: null,
  scale: null,
  sheetReferences: [],
  specReferences: [],
  keynotes: [],
  schedule: null,
  revisions: [],
});

const SCALE_RE =
  /((?:\d+\s+)?\d+(?:\/\d+)?)\s*["”″]\s*=\s*(\d+)\s*['’′]\s*-?\s*(\d+(?:\s+\d+\/\d+)?(?:\/\d+)?)?\s*["”″]?|\b1\s*:\s*(\d{1,5})\b|\b(N\.?T\.?S\.?|NOT\s+TO\s+SCALE)\b/i;

const parseInches = (text: string): number => {
  const parts = text.trim().split(/\s+/);
  let total = 0;
  for (const part of parts) {
    const frac = /^(\d+)\/(\d+)$/.exec(part);
    if (frac) total += Number(frac[1]) / Number(frac[2]);
    else if (/^\d+(?:\.\d+)?$/.test(part)) total += Number(part);
  }
  return total;
};

/** `1/8" = 1'-0"` → ratio 1/96; `1" = 30'-0"` → 1/360; `1:100` → 0.01; `NTS` → null ratio. */
export const parseScale = (text: string): Scale | null => {
  const match = SCALE_RE.exec(text);
  if (!match) return null;
  const printed = match[0].trim();
  if (match[5]) return { text: printed, ratio: null };
  if (match[4]) return { text: printed, ratio: 1 / Number(match[4]) };
  const paper = parseInches(match[1] ?? '');
  const feet = Number(match[2]);
  const inches = match[3] ? parseInches(match[3]) : 0;
  const real = feet * 12 + inches;
  return { text: printed, ratio: paper > 0 && real > 0 ? paper / real : null };
};

const DETAIL_ON_SHEET_RE =
  /\b(?:SEE\s+)?(?:DETAIL|DET\.?|SECTION|SECT\.?|ELEVATION|ELEV\.?|VIEW)\s+([A-Z]?\d{1,3}[A-Z]?)\s*(?:\/|ON|,)\s*(?:SHEET\s+|SHT\.?\s+|DWG\.?\s+)?([A-Z]{1,3}[-.]?\d{1,4}(?:\.\d{1,3})?[A-Z]?)\b/gi;
const SLASH_REF_RE =
  /(?<![\w/])([A-Z]?\d{1,3}[A-Z]?)\s*\/\s*([A-Z]{1,3}-?\d{1,4}(?:\.\d{1,3})?[A-Z]?)(?![\w/])/g;
const SEE_SHEET_RE =
  /\bSEE\s+(?:SHEET|SHT\.?|DWG\.?|DRAWING)S?\s+([A-Z]{1,3}[-.]?\d{1,4}(?:\.\d{1,3})?[A-Z]?)\b/gi;

/** Sheet and detail references in free text. */
export const findTextReferences = (text: string): SheetReference[] => {
  const refs = new Map<string, SheetReference>();
  const add = (raw: string, detail: string | null, sheet: string): void => {
    const parsed = parseSheetNumber(sheet.toUpperCase());
    if (!parsed) return;
    const key = `${detail ?? ''}/${parsed.normalized}`;
    if (!refs.has(key)) {
      refs.set(key, {
        text: raw.trim(),
        detail,
        sheet,
        sheetNormalized: parsed.normalized,
        displayBox: null,
      });
    }
  };
  for (const match of text.matchAll(DETAIL_ON_SHEET_RE)) add(match[0], match[1] ?? '', match[2] ?? '');
  for (const match of text.matchAll(SLASH_REF_RE)) {
    // Skip fractions, dates and scales (digits on both sides).
    if (/^\d+$/.test(match[2] ?? '')) continue;
    add(match[0], match[1] ?? '', match[2] ?? '');
  }
  for (const match of text.matchAll(SEE_SHEET_RE)) add(match[0], null, match[1] ?? '');
  return [...refs.values()];
};

/** How far (in text heights) an elevation marker's number may sit beside or under its sheet word. */
const MARKER_REACH = 4;

/**
 * The number of an elevation marker around an upright sheet word: digits only (letters beside a sheet word
 * are grid bubbles and labels), on the same line within reach to either side, else centred under it.
 */
const markerNumberBeside = (sheetWord: Word, details: readonly Word[]): Word | null => {
  let best: Word | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  if (sheetWord.dir !== 0) return null;
  for (const detail of details) {
    if (detail === sheetWord || detail.dir !== 0 || !/^\d{1,3}$/.test(detail.text)) continue;
    const size = Math.max(sheetWord.size, detail.size);
    const sameLine = Math.abs((detail.y0 + detail.y1) / 2 - (sheetWord.y0 + sheetWord.y1) / 2) < 0.6 * size;
    const gapBeside = Math.max(detail.x0 - sheetWord.x1, sheetWord.x0 - detail.x1);
    const beside = sameLine && gapBeside > -0.2 * size && gapBeside < MARKER_REACH * size;
    const gapUnder = detail.y0 - sheetWord.y1;
    const centred = Math.abs((detail.x0 + detail.x1) / 2 - (sheetWord.x0 + sheetWord.x1) / 2) < 1.5 * size;
    const under = centred && gapUnder > -0.3 * size && gapUnder < MARKER_REACH * size;
    const distance = beside ? gapBeside : under ? gapUnder : Number.POSITIVE_INFINITY;
    if (distance < bestDistance) {
      best = detail;
      bestDistance = distance;
    }
  }
  return best;
};

/**
 * Graphic callouts printed as text: a sheet-number word with a detail number just above it (section heads,
 * detail bubbles) or just left of it across a slash. `knownSheets` (the set's own numbers) filters noise.
 */
export const findCalloutReferences = (
  words: readonly Word[],
  knownSheets: ReadonlySet<string> | null,
): SheetReference[] => {
  const out: SheetReference[] = [];
  const seen = new Set<string>();
  const details = words.filter((word) => /^[A-Z]?\d{1,3}[A-Z]?$/.test(word.text));
  for (const word of words) {
    const parsed = parseSheetNumber(word.text);
    if (!parsed || /^[A-Z]\d$/.test(parsed.printed)) continue;
    if (knownSheets && !knownSheets.has(parsed.normalized)) continue;
    let best: Word | null = null;
    let bestDist = Number.POSITIVE_INFINITY;
    for (const detail of details) {
      if (detail === word || detail.dir !== word.dir) continue;
      const size = Math.max(word.size, detail.size);
      // Above the sheet word (upright text) within ~3 text heights, horizontally centered on it.
      const cxW = (word.x0 + word.x1) / 2;
      const cxD = (detail.x0 + detail.x1) / 2;
      const dy = word.y0 - detail.y1;
      const dist = Math.hypot(cxW - cxD, dy);
      if (
        word.dir === 0 &&
        dy > -0.3 * size &&
        dy < 3 * size &&
        Math.abs(cxW - cxD) < 1.5 * size &&
        dist < bestDist
      ) {
        best = detail;
        bestDist = dist;
      }
    }
    // Elevation markers print the number beside the sheet word or under it, a little farther off.
    best ??= markerNumberBeside(word, details);
    if (!best) continue;
    const box: Box = {
      x0: Math.min(best.x0, word.x0),
      y0: Math.min(best.y0, word.y0),
      x1: Math.max(best.x1, word.x1),
      y1: Math.max(best.y1, word.y1),
    };
    const key = `${best.text}/${parsed.normalized}@${Math.round(box.x0)},${Math.round(box.y0)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      text: `${best.text}/${parsed.printed}`,
      detail: best.text,
      sheet: parsed.printed,
      sheetNormalized: parsed.normalized,
      displayBox: toDisplayBox(box),
    });
  }
  return out;
};

const KEYNOTE_LINE_RE = /^([A-Z]?\d{1,3}(?:\.\d{1,2})?[A-Z]?)[.)]?\s+(.{3,})$/;

/** Numbered entries (`1. TEXT`, `A3 TEXT`) with their continuation lines. */
export const parseNumberedEntries = (lines: readonly string[]): Keynote[] => {
  const out: Keynote[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const match = KEYNOTE_LINE_RE.exec(line);
    if (match) out.push({ key: match[1] ?? '', text: (match[2] ?? '').trim() });
    else {
      const previous = out[out.length - 1];
      if (previous) previous.text += ` ${line}`;
    }
  }
  return out;
};

export const buildNormalizedData = (input: {
  text: string;
  sheetNumber: string | null;
  viewNumber?: string | null;
  viewTitle?: string | null;
  scaleText?: string | null;
  callouts?: SheetReference[];
  keynotes?: Keynote[];
  schedule?: Schedule | null;
  revisions?: Revision[];
}): NormalizedData => {
  const refs = findTextReferences(input.text);
  const seen = new Set(refs.map((reference) => `${reference.detail ?? ''}/${reference.sheetNormalized}`));
  for (const callout of input.callouts ?? []) {
    const key = `${callout.detail ?? ''}/${callout.sheetNormalized}`;
    if (!seen.has(key)) {
      seen.add(key);
      refs.push(callout);
    }
  }
  return {
    schemaVersion: NORMALIZED_DATA_SCHEMA_VERSION,
    sheetNumber: input.sheetNumber ? normalizeSheetNumber(input.sheetNumber) : null,
    viewNumber: input.viewNumber ?? null,
    viewTitle: input.viewTitle ?? null,
    scale: input.scaleText ? parseScale(input.scaleText) : parseScale(input.text),
    sheetReferences: refs,
    specReferences: findSpecReferences(input.text),
    keynotes: input.keynotes ?? [],
    schedule: input.schedule ?? null,
    revisions: input.revisions ?? [],
  };
};
