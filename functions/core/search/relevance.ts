/**
 * How sure a hit is an answer: a confidence from 0 to 1 for each hit, from what the hit shows of the
 * query (not from its fused score, which ranks within one response only).
 *
 * Evidence of a hit:
 * - `coverage`: the share of the query's words (an identifier it writes counts as one word) that the
 *   hit's passage has: the word's stem, its concept (`GWB` and `gypsum board`), the MasterFormat number
 *   of a title, or a form the project's own definitions give it;
 * - `similarity`: the cosine of the query's and the passage's embeddings (for a hit the semantic
 *   ranking did not reach, the lowest similarity that ranking kept: at most that);
 * - `agreement`: whether both the lexical and the semantic ranking found it.
 *
 * confidence = logistic(bias + coverage weight × coverage + similarity weight × similarity + agreement
 * weight × agreement), the weights fitted on the labelled queries' hits (`npm run bench:search-eval`;
 * docs/decisions.md, Search). RELEVANCE_FLOOR is the confidence under which a hit is not an answer:
 * reviews do not quote such hits, and the eval counts a negative query (nothing answers it) as passed
 * when its top hit is under it.
 */
import { analyzeQuery, analyzeText, isStopWord } from './analyzer.ts';
import type { DefinedForm } from './defined-terms.ts';

export interface HitEvidence {
  coverage: number;
  /** Null in a search without the semantic ranking (`exact`). */
  similarity: number | null;
  agreement: boolean;
}

export interface ConfidenceModel {
  bias: number;
  coverage: number;
  similarity: number;
  agreement: number;
  /** Bias and coverage weight of a search without the semantic ranking. */
  lexicalOnly: { bias: number; coverage: number };
}

/** Fitted on the labelled queries (see the module's comment). */
export const CONFIDENCE_MODEL: ConfidenceModel = {
  bias: -6,
  coverage: 6,
  similarity: 4,
  agreement: 1,
  lexicalOnly: { bias: -4, coverage: 6 },
};
export const RELEVANCE_FLOOR = 0.5;

/**
 * The query's words, each as its alternatives: a word is matched when the passage has one of them (an
 * alternative of several tokens, space-joined, needs them all).
 */
export function queryUnits(query: string, defined: DefinedForm[] = []): string[][] {
  const analyzed = analyzeQuery(query);
  const units: string[][] = analyzed.identifiers.map((identifier) => [identifier]);
  const written = new Set(analyzed.identifiers);
  for (const word of query.match(/[A-Za-z][A-Za-z'-]*|\d+(?:[./]\d+)*/g) ?? []) {
    if (isStopWord(word) || word.length < 2) continue;
    const tokens = analyzeQuery(word).terms.filter((token) => !token.endsWith('*'));
    // A word that is part of a written identifier (`A` of `A-101`) is that identifier's.
    if (tokens.length === 0 || tokens.some((token) => written.has(token))) continue;
    if (
      /^\d/.test(word) &&
      analyzed.identifiers.some((identifier) => identifier.includes(word.toLowerCase()))
    )
      continue;
    units.push(tokens);
  }
  // A form the project defines (`FSBW`: full strength butt weld) is matched by its other form too.
  for (const form of defined) {
    const writtenTokens = analyzeQuery(form.written).terms;
    const other = analyzeQuery(form.other)
      .terms.filter((token) => !token.endsWith('*'))
      .join(' ');
    for (const unit of units) if (unit.some((token) => writtenTokens.includes(token))) unit.push(other);
  }
  return units;
}

/** The share of the query's units a passage has. */
export function coverageOf(units: string[][], passageTokens: ReadonlySet<string>): number {
  if (units.length === 0) return 0;
  const has = (alternative: string) => alternative.split(' ').every((token) => passageTokens.has(token));
  return units.filter((alternatives) => alternatives.some(has)).length / units.length;
}

export const passageTokens = (head: string, text: string): Set<string> =>
  new Set(analyzeText(`${head}\n${text}`).split(' '));

export function confidenceOf(evidence: HitEvidence, model: ConfidenceModel = CONFIDENCE_MODEL): number {
  const z =
    evidence.similarity === null
      ? model.lexicalOnly.bias + model.lexicalOnly.coverage * evidence.coverage
      : model.bias +
        model.coverage * evidence.coverage +
        model.similarity * evidence.similarity +
        model.agreement * (evidence.agreement ? 1 : 0);
  return Math.round((1 / (1 + Math.exp(-z))) * 1000) / 1000;
}
