import { phraseKey } from './analyzer.ts';
import plainLanguage from './plain-language.json' with { type: 'json' };

/**
 * Query expansion: people ask in plain words ("how long are we on the hook for defects"), documents
 * answer in trade terms ("warranty", "correction period"). The versioned table `plain-language.json`
 * maps plain words and phrases to those terms; a query's expansion is the trade terms of every plain
 * phrase it contains (matched on stems, longest first, so one word is not counted twice).
 *
 * The expansion is searched beside the query at a lower weight and embedded with it: it can bring a
 * passage up, never take the query's own matches away. Queries only: indexes do not depend on it.
 */

export const PLAIN_LANGUAGE_VERSION = plainLanguage.version;

interface ExpansionTable {
  /** stemmed plain phrase → trade terms */
  phrases: Map<string, string[]>;
  longest: number;
}

let table: ExpansionTable | null = null;

function loadTable(): ExpansionTable {
  if (table) return table;
  const phrases = new Map<string, string[]>();
  let longest = 1;
  for (const row of plainLanguage.rows) {
    for (const plain of row.plain) {
      const key = phraseKey(plain);
      if (!key) continue;
      phrases.set(key, [...new Set([...(phrases.get(key) ?? []), ...row.trade])]);
      longest = Math.max(longest, key.split(' ').length);
    }
  }
  table = { phrases, longest };
  return table;
}

/** A plain phrase of a query: its word count and the trade terms it stands for. */
export interface Expansion {
  plainWords: number;
  /** The plain phrase's stems, as the query writes them. */
  stems: string[];
  trade: string[];
}

/** The plain phrases of a query (their word counts) and the trade terms each stands for. */
export function expansionsOf(query: string): Expansion[] {
  const { phrases, longest } = loadTable();
  const stems = phraseKey(query).split(' ').filter(Boolean);
  const found: Expansion[] = [];
  for (let start = 0; start < stems.length; ) {
    let matched = 0;
    for (let length = Math.min(longest, stems.length - start); length >= 1; length--) {
      const trade = phrases.get(stems.slice(start, start + length).join(' '));
      if (trade) {
        found.push({ plainWords: length, stems: stems.slice(start, start + length), trade });
        matched = length;
        break;
      }
    }
    start += Math.max(1, matched);
  }
  return found;
}

/** The trade terms of a query's plain phrases (none for a query of identifiers or trade terms). */
export const tradeTerms = (expansions: Expansion[]): string[] => [
  ...new Set(expansions.flatMap((expansion) => expansion.trade)),
];

/**
 * The trade terms of several words that a plain phrase of several words stands for (`on the hook for
 * defects` → `correction period`): specific enough to be searched as phrases too.
 */
export const specificPhrases = (expansions: Expansion[]): string[] => [
  ...new Set(
    expansions
      .filter((expansion) => expansion.plainWords >= 2)
      .flatMap((expansion) => expansion.trade.filter((term) => term.includes(' '))),
  ),
];

/** The trade terms a query's plain words stand for. */
export const expandQuery = (query: string): string[] => tradeTerms(expansionsOf(query));

/** The multi-word trade terms of a query's multi-word plain phrases. */
export const specificTradePhrases = (query: string): string[] => specificPhrases(expansionsOf(query));

/** What a query's embedding is made of: the query, and its expansion (`terms`) when it has one. */
export function queryEmbeddingText(query: string, terms: string[] = expandQuery(query)): string {
  return terms.length > 0 ? `${query}\n${terms.join(', ')}` : query;
}
