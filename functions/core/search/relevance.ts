/**
 * How sure a hit is an answer: a confidence from 0 to 1 for each hit, from what the hit's passage shows
 * of the query (not from its fused score, which ranks within one response only).
 *
 * The evidence is the passage's coverage of the query: the share of the query's words (an identifier
 * it writes counts as one word), each weighed by how specific it is among the passages the search
 * found (`unitWeights`), that the passage has, as the word's stem, its concept (`GWB` and
 * `gypsum board`), the MasterFormat number of a title, the trade terms of a plain phrase (`people on
 * foot`: `pedestrian`), or the other form the project's own definitions give it.
 *
 * confidence = logistic(bias + weight × coverage), fitted on the shared labelled queries' top-10 hits
 * (a hit is positive when it meets a target of its query) and judged on the held-out ones:
 * `npm run bench:search-calibrate -- --weighted` (docs/decisions.md, Search). The semantic
 * similarity and the agreement of the two modes were measured as evidence too and left out: fitted,
 * their weights came out near zero or negative (a sheet number's embedding says nothing of the sheet).
 * RELEVANCE_FLOOR is the confidence under which a hit is a weak match, not an answer.
 */
import { analyzeQuery, analyzeText, isStopWord } from './analyzer.ts';
import type { DefinedForm } from './defined-terms.ts';
import { fileNameWords } from './named-files.ts';
import { expansionsOf } from './query-expansion.ts';

export interface ConfidenceModel {
  bias: number;
  coverage: number;
}

/** Fitted on the labelled queries (see the module's comment). */
export const CONFIDENCE_MODEL: ConfidenceModel = { bias: -2.18, coverage: 3.71 };
export const RELEVANCE_FLOOR = 0.5;

/**
 * The query's words, each as its alternatives: a word is matched when the passage has one of them (an
 * alternative of several tokens, space-joined, needs them all). An identifier the query writes is one
 * word; a plain word is also matched by the trade terms its phrase stands for (`people on foot`:
 * `pedestrian`), and a form the project defines by its other form.
 */
export function queryUnits(query: string, defined: DefinedForm[] = []): string[][] {
  const analyzed = analyzeQuery(query);
  const units: string[][] = analyzed.identifiers.map((identifier) => [identifier]);
  const written = new Set(analyzed.identifiers);
  const tokensOf = (text: string) => analyzeQuery(text).terms.filter((token) => !token.endsWith('*'));
  for (const word of query.match(/[A-Za-z0-9][A-Za-z0-9'.-]*/g) ?? []) {
    const bare = word.replace(/[.'-]+$/, '');
    if (isStopWord(bare) || bare.length < 2) continue;
    // A word that is a written identifier, or part of one (`101` of `A 101`), is that identifier's.
    if (tokensOf(bare).some((token) => written.has(token))) continue;
    if (
      /^\d+$/.test(bare) &&
      analyzed.identifiers.some((identifier) => identifier.includes(bare.replace(/^0+/, '')))
    )
      continue;
    // The parts of a compound are words of their own (`post-tensioned`).
    for (const part of bare.split('-')) {
      const tokens = isStopWord(part) || part.length < 2 ? [] : tokensOf(part);
      if (tokens.length > 0) units.push(tokens);
    }
  }
  const add = (writtenTokens: string[], other: string) => {
    for (const unit of units) if (unit.some((token) => writtenTokens.includes(token))) unit.push(other);
  };
  for (const expansion of expansionsOf(query))
    for (const term of expansion.trade) add(expansion.stems, tokensOf(term).join(' '));
  for (const form of defined) add(tokensOf(form.written), tokensOf(form.other).join(' '));
  return units.map((unit) => [...new Set(unit)].filter(Boolean));
}

/**
 * The share of the query's units a passage has. The words that name the passage's own file (`Star of the
 * Sea`, `gym` in a question about the gymnasium's addenda) are left out: they say which file, and every
 * title block of it prints them, not what the passage says.
 */
export function coverageOf(
  units: string[][],
  passageTokens: ReadonlySet<string>,
  fileNameTokens: ReadonlySet<string> = new Set(),
  weights: number[] = units.map(() => 1),
): number {
  const content = units
    .map((alternatives, index) => ({ alternatives, weight: weights[index] ?? 1 }))
    .filter(({ alternatives }) => !alternatives.some((token) => fileNameTokens.has(token)));
  const total = content.reduce((sum, unit) => sum + unit.weight, 0);
  if (total === 0) return units.length > 0 ? 1 : 0;
  const has = (alternative: string) => alternative.split(' ').every((token) => passageTokens.has(token));
  return (
    content.filter(({ alternatives }) => alternatives.some(has)).reduce((sum, unit) => sum + unit.weight, 0) /
    total
  );
}

/**
 * How specific each of the query's words is among the passages the search found for it: ln((N + 1) /
 * (n + 0.5)), N the passages, n those whose text holds one of the word's plain stems (an identifier is
 * specific: n = 0). A word most of them hold (`slab` on a structural set) weighs little, one none of
 * them holds (`tendon`) the most.
 */
export function unitWeights(units: string[][], texts: string[]): number[] {
  const lowered = texts.map((text) => text.toLowerCase());
  return units.map((alternatives) => {
    const stems = alternatives.filter((token) => /^[a-z]{3,}$/.test(token));
    const holding =
      stems.length === 0 ? 0 : lowered.filter((text) => stems.some((stem) => text.includes(stem))).length;
    return Math.log((texts.length + 1) / (holding + 0.5));
  });
}

/** The tokens of a file's name (`collective-star-of-the-sea-college_structural_drawings.pdf`). */
export const fileNameTokens = (fileName: string): Set<string> =>
  new Set(analyzeText(fileNameWords(fileName)).split(' '));

export const passageTokens = (head: string, text: string): Set<string> =>
  new Set(analyzeText(`${head}\n${text}`).split(' '));

export function confidenceOf(coverage: number, model: ConfidenceModel = CONFIDENCE_MODEL): number {
  return Math.round((1 / (1 + Math.exp(-(model.bias + model.coverage * coverage)))) * 1000) / 1000;
}
