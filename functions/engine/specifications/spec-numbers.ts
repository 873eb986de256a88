/**
 * Specification section numbers: MasterFormat 2004+ (`09 29 00`, `092900`, `32 01 16.71`) and the 1995
 * five-digit form (`13210`), which has no digit-pair form and is kept as printed.
 */

/**
 * A 2004-style number as printed: three digit pairs, spaces optional, optional `.N` suffix, and an optional
 * letter code after a slash naming a variant or form of the section (`00 43 13/A`, `00 41 00/BF`).
 */
export const SECTION_NUMBER_2004 = String.raw`\d{2}[ \u00a0]?\d{2}[ \u00a0]?\d{2}(?:\.\d{1,3})?(?:\/[A-Z]{1,3}\b)?`;
export const SECTION_NUMBER_1995 = String.raw`\d{5}`;
export const SECTION_NUMBER = `(?:${SECTION_NUMBER_2004}|${SECTION_NUMBER_1995})`;

export interface SectionNumber {
  normalized: string;
  asPrinted: string;
  format: 'masterformat2004' | 'masterformat1995';
}

/**
 * Normalizes a printed number: `092900` → `09 29 00`, `32 01 16.71` and `004313/A` → `00 43 13/A` kept, `13210`
 * kept. Null if not a number.
 */
export const normalizeSectionNumber = (printed: string): SectionNumber | null => {
  const text = printed.trim().replace(/\u00a0/g, ' ');
  const m2004 = /^(\d{2}) ?(\d{2}) ?(\d{2})(?:\.(\d{1,3}))?(?:\/([A-Z]{1,3}))?$/.exec(text);
  if (m2004) {
    const base = `${m2004[1]} ${m2004[2]} ${m2004[3]}`;
    const withLevel = m2004[4] ? `${base}.${m2004[4]}` : base;
    return {
      normalized: m2004[5] ? `${withLevel}/${m2004[5]}` : withLevel,
      asPrinted: text,
      format: 'masterformat2004',
    };
  }
  if (/^\d{5}$/.test(text)) return { normalized: text, asPrinted: text, format: 'masterformat1995' };
  return null;
};

const SPEC_REFERENCE_RE = new RegExp(
  String.raw`\b(?:SECTIONS?|Sections?|SPECIFICATION|Specification|SPEC\.?|Spec\.?)\s+(${SECTION_NUMBER_2004}|\d{5})\b`,
  'g',
);
const BARE_2004_RE = /(?<![\d.\-/])(\d{2} \d{2} \d{2}(?:\.\d{2})?)(?![\d/]|\s?-\s?\d)/g;

/**
 * Specification sections referenced in free text: `SECTION 09 29 00`, `Section 092900`, and bare
 * spaced numbers `09 29 00` (bare six-digit runs are too ambiguous: phone numbers, dates, contract ids).
 */
export const findSpecReferences = (text: string): Array<{ text: string; sectionNumber: string }> => {
  const found = new Map<string, { text: string; sectionNumber: string }>();
  for (const match of text.matchAll(SPEC_REFERENCE_RE)) {
    const parsed = normalizeSectionNumber(match[1] ?? '');
    if (parsed && !found.has(parsed.normalized))
      found.set(parsed.normalized, { text: match[0], sectionNumber: parsed.normalized });
  }
  for (const match of text.matchAll(BARE_2004_RE)) {
    const parsed = normalizeSectionNumber(match[1] ?? '');
    if (parsed && !found.has(parsed.normalized))
      found.set(parsed.normalized, { text: match[0], sectionNumber: parsed.normalized });
  }
  return [...found.values()];
};
