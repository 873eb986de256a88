import { foldedWords } from './look-alikes.ts';
import type { ContentFingerprint } from './model.ts';

/**
 * A drawing sheet's content fingerprint and the similarity of two of them.
 *
 * Source: the sheet's text lines as the pipeline holds them at assembly (the engine's `PageResult.lines` of
 * the sheet's page, text layer or OCR; the same words as the sheet's regions' text plus its page source,
 * `sheetTextOutsideRegions`). Each line gives its shingles: every run of SHINGLE_WORDS consecutive words, or
 * the whole line when it holds fewer (a room name, a dimension, a grid label). A drawing's words are placed
 * one label at a time, so shingles never cross lines: moving a note or a label leaves its shingles as they
 * were, and editing one changes only its own.
 *
 * The fingerprint keeps the FINGERPRINT_SIZE smallest hashes of the distinct shingles (a bottom-k sample).
 * The sample is consistent across sheets (a shingle is kept on every sheet where its hash is under that
 * sheet's largest kept hash), so on the hashes both samples cover, whether a shingle is on either sheet is
 * known exactly, and the share found there estimates the share over all shingles.
 */

export const FINGERPRINT_SIZE = 512;
const SHINGLE_WORDS = 3;

/** FNV-1a, then murmur3's finalizer so that the small hashes are an unbiased sample of the shingles. */
const hash32 = (text: string): number => {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    h ^= text.charCodeAt(index);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

const shinglesOf = (line: string): string[] => {
  const words = foldedWords(line);
  if (words.length === 0) return [];
  if (words.length <= SHINGLE_WORDS) return [words.join(' ')];
  const out: string[] = [];
  for (let start = 0; start + SHINGLE_WORDS <= words.length; start++)
    out.push(words.slice(start, start + SHINGLE_WORDS).join(' '));
  return out;
};

/** The fingerprint of a sheet's printed lines (see the module comment for where they come from). */
export const contentFingerprint = (
  lines: readonly string[],
  size: number = FINGERPRINT_SIZE,
): ContentFingerprint => {
  const hashes = new Set<number>();
  for (const line of lines) for (const shingle of shinglesOf(line)) hashes.add(hash32(shingle));
  const sorted = [...hashes].sort((a, b) => a - b);
  return { hashes: sorted.slice(0, size), shingleCount: sorted.length, size };
};

/** Below this many shingles a sheet printed too little to compare by content (a blank or unread sheet). */
export const MIN_COMPARABLE_SHINGLES = 8;

/** The largest hash under which the fingerprint knows every shingle of its sheet (all of them when not full). */
const coverage = (fingerprint: ContentFingerprint): number =>
  fingerprint.hashes.length < fingerprint.size
    ? Number.POSITIVE_INFINITY
    : (fingerprint.hashes.at(-1) ?? Number.POSITIVE_INFINITY);

/**
 * How often a set's sheets print each shingle: what the set says about itself. A shingle on most sheets of a
 * set is its title block, its general notes, its legend: it tells nothing about which sheet is which.
 */
export interface SetShingles {
  /** Sheets of the set whose fingerprint holds the hash. */
  holding(hash: number): number;
  /** Sheets of the set whose fingerprint would hold the hash if they printed it. */
  covering(hash: number): number;
}

export const setShingles = (fingerprints: readonly ContentFingerprint[]): SetShingles => {
  const counts = new Map<number, number>();
  for (const fingerprint of fingerprints)
    for (const hash of fingerprint.hashes) counts.set(hash, (counts.get(hash) ?? 0) + 1);
  const limits = fingerprints.map(coverage).sort((a, b) => a - b);
  return {
    holding: (hash) => counts.get(hash) ?? 0,
    covering: (hash) => {
      // Sheets whose coverage is at least `hash`: all after the first limit >= hash.
      let low = 0;
      let high = limits.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((limits[middle] ?? 0) < hash) low = middle + 1;
        else high = middle;
      }
      return limits.length - low;
    },
  };
};

/** A fingerprint with the set it belongs to, so that its own sheet is not counted in the set's commonness. */
export interface PlacedFingerprint {
  fingerprint: ContentFingerprint;
  set: SetShingles;
}

/**
 * 0..1, how much of their distinctive text two sheets share: a weighted Jaccard over the hashes both samples
 * cover. A shingle weighs (1 - f)^2, f the share of the *other* sheets of each set that print it (the larger
 * of the two sets' shares): a set's boilerplate weighs nothing, a note only two sheets print weighs fully.
 * Null when either sheet printed fewer than MIN_COMPARABLE_SHINGLES shingles.
 */
export const contentSimilarity = (first: PlacedFingerprint, second: PlacedFingerprint): number | null => {
  const a = first.fingerprint;
  const b = second.fingerprint;
  if (a.shingleCount < MIN_COMPARABLE_SHINGLES || b.shingleCount < MIN_COMPARABLE_SHINGLES) return null;
  const limit = Math.min(coverage(a), coverage(b));
  const aCovers = (hash: number) => hash <= coverage(a);
  const bCovers = (hash: number) => hash <= coverage(b);
  const sets = first.set === second.set ? [first.set] : [first.set, second.set];
  const weight = (hash: number, inA: boolean, inB: boolean): number => {
    let share = 0;
    for (const set of sets) {
      // The pair's own sheets are left out of their sets' counts.
      const own = (set === first.set ? 1 : 0) + (set === second.set ? 1 : 0);
      const holdingOwn = (set === first.set && inA ? 1 : 0) + (set === second.set && inB ? 1 : 0);
      const coveringOwn =
        (set === first.set && aCovers(hash) ? 1 : 0) + (set === second.set && bCovers(hash) ? 1 : 0);
      const others = set.covering(hash) - coveringOwn;
      if (others > 0 && own > 0) share = Math.max(share, (set.holding(hash) - holdingOwn) / others);
    }
    return (1 - share) ** 2;
  };
  let shared = 0;
  let union = 0;
  let i = 0;
  let j = 0;
  while (i < a.hashes.length || j < b.hashes.length) {
    const ha = a.hashes[i] ?? Number.POSITIVE_INFINITY;
    const hb = b.hashes[j] ?? Number.POSITIVE_INFINITY;
    const hash = Math.min(ha, hb);
    if (hash > limit) break;
    const inA = ha === hash;
    const inB = hb === hash;
    const w = weight(hash, inA, inB);
    union += w;
    if (inA && inB) shared += w;
    if (inA) i++;
    if (inB) j++;
  }
  return union > 0 ? shared / union : 0;
};
