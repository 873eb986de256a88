import {
  type Answerer,
  CONVERSATION_LIMITS,
  type Conversation,
  type DraftCitation,
  type ReviewedSource,
  reviewedSources,
  type ToolResult,
  type TurnResult,
} from '../../core/reviews/answerer.ts';
import { RELEVANCE_FLOOR } from '../../core/search/relevance.ts';
import { namedFileNames, questionParts } from './question.ts';
import { addendumName, bestQuotes, originalOf, type Quote, referencesOf, unansweredAsks } from './quotes.ts';

export { namedFileNames, questionParts } from './question.ts';
export { addendumName, referencesOf } from './quotes.ts';

/**
 * The local answerer, with no language model: it searches (exact and semantic), reviews the sources
 * the exact search found, and answers with sentences quoted from them, each with its citation. It
 * says so in its answer, and says plainly when nothing it read states an answer. Deterministic: the
 * same sources give the same answer (a retried step writes the same events).
 */

const ORIGINAL = 'original:';
const NAMED = 'named:';
const NEXT = 'next:';

const where = (source: ReviewedSource) =>
  `${source.source.label} (${source.fileName}, p. ${source.pageStart}${source.pageEnd > source.pageStart ? `–${source.pageEnd}` : ''})`;

export class ExtractiveAnswerer implements Answerer {
  readonly kind = 'extractive' as const;
  readonly deterministic = true;

  /**
   * One turn: the tools still worth calling, in this order (a final turn calls none): a first search;
   * the searches of each part of the question in the files it names; a review of what the words found;
   * the page after a quoted bidder's question; what a quoted addendum changes. Then the answer, quoted.
   */
  async turn(
    conversation: Conversation,
    emit: (delta: string) => Promise<void>,
    final: boolean,
  ): Promise<TurnResult> {
    const reading = readingOf(conversation);
    if (!final) {
      const next = firstSearch(reading) ?? namedSearches(reading) ?? reviewOfFound(reading);
      if (next) return next;
    }
    // The sources read for the question, and those read to find what an addendum changes.
    const read = [
      ...new Map(sourcesOf(conversation, false).map((source) => [source.sourceCatalogUri, source])).values(),
    ];
    const quotes = bestQuotes(reading.parts, read);
    const changes = quotes.filter((quote) => quote.source.classification === 'addenda');
    if (!final) {
      const next = nextPageOfAsks(conversation, quotes, read) ?? whatAddendaChange(conversation, changes);
      if (next) return next;
    }
    const originals = sourcesOf(conversation, true).filter((source) => source.classification !== 'addenda');
    const lines =
      quotes.length === 0 ? [nothingFound(reading.reviewed)] : quotedLines(quotes, changes, originals);
    const text = lines.map((line) => line.text).join('\n');
    for (const [index, line] of lines.entries()) await emit(index === 0 ? line.text : `\n${line.text}`);
    return {
      kind: 'answer',
      answer: { text, citations: lines.flatMap((line) => (line.citation ? [line.citation] : [])) },
    };
  }
}

/** What a turn reads of the conversation: the question's searches, the files it names, its parts. */
interface Reading {
  question: string;
  searches: ToolResult[];
  /** The files the question names (`the Ochlocknee contract`): searched on their own, and the only ones read. */
  named: string[];
  namedSearches: ToolResult[];
  parts: string[];
  reviewed: number;
}

const idOf = (result: ToolResult) => result.call.id ?? '';

function readingOf(conversation: Conversation): Reading {
  const question = conversation.question;
  const searches = conversation.results.filter(
    (result) => result.call.name === 'search_sources' && !idOf(result).startsWith(ORIGINAL),
  );
  const named = namedFileNames(
    question,
    searches.flatMap((result) => (result.hits ?? []).map((hit) => hit.fileName)),
  ).slice(0, 3);
  return {
    question,
    searches,
    named,
    namedSearches: searches.filter((result) => idOf(result).startsWith(NAMED)),
    parts: questionParts(question, named),
    reviewed: reviewedSources(conversation).size,
  };
}

const sourcesOf = (conversation: Conversation, original: boolean) =>
  conversation.results
    .filter((result) => idOf(result).startsWith(ORIGINAL) === original)
    .flatMap((result) => result.sources ?? []);

function firstSearch(reading: Reading): TurnResult | null {
  if (reading.searches.length > 0) return null;
  return {
    kind: 'tools',
    calls: [{ name: 'search_sources', query: reading.question, modes: ['exact', 'semantic'] }],
  };
}

/** Each part of the question searched on its own, in the files it names (without the naming words). */
function namedSearches(reading: Reading): TurnResult | null {
  const { named, parts } = reading;
  if ((named.length === 0 && parts.length <= 1) || reading.namedSearches.length > 0) return null;
  const files: (string | null)[] = named.length > 0 ? named.slice(0, 2) : [null];
  return {
    kind: 'tools',
    calls: files
      .flatMap((fileName) => parts.slice(0, 3).map((part) => ({ fileName, query: part })))
      .map(({ fileName, query }, index) => ({
        id: `${NAMED}${index}`,
        name: 'search_sources' as const,
        query,
        modes: ['exact' as const, 'semantic' as const],
        ...(fileName ? { fileName } : {}),
      })),
  };
}

/**
 * Nothing read yet: a source the words of the question found (not a nearest neighbour alone) is worth
 * reading, those of the named files' own searches first, a file each in turn; two reviews at most (each
 * reads CONVERSATION_LIMITS.sourcesPerReview sources).
 */
function reviewOfFound(reading: Reading): TurnResult | null {
  if (reading.reviewed > 0) return null;
  const { named, namedSearches } = reading;
  const lists = [
    ...namedSearches,
    ...reading.searches.filter((result) => !namedSearches.includes(result)),
  ].map((result) => result.hits ?? []);
  const ordered = Array.from({ length: Math.max(0, ...lists.map((hits) => hits.length)) }, (_, index) =>
    lists.flatMap((hits) => (hits[index] ? [hits[index]] : [])),
  ).flat();
  const found = ordered.filter(
    (hit) => hit.matchedModes.includes('exact') && (named.length === 0 || named.includes(hit.fileName)),
  );
  // The hits over the relevance floor are the ones worth reading; under it only when none is over.
  const strong = found.filter((hit) => hit.confidence >= RELEVANCE_FLOOR);
  const uris = [...new Set((strong.length > 0 ? strong : found).map((hit) => hit.sourceCatalogUri))].slice(
    0,
    2 * CONVERSATION_LIMITS.sourcesPerReview,
  );
  if (uris.length === 0) return null;
  const batches = [
    uris.slice(0, CONVERSATION_LIMITS.sourcesPerReview),
    uris.slice(CONVERSATION_LIMITS.sourcesPerReview),
  ];
  return {
    kind: 'tools',
    calls: batches
      .filter((batch) => batch.length > 0)
      .map((batch) => ({ name: 'review_sources' as const, sourceCatalogUris: batch })),
  };
}

/** A bidder's question quoted whose answer starts the next page: read that page (once). */
function nextPageOfAsks(
  conversation: Conversation,
  quotes: Quote[],
  read: ReviewedSource[],
): TurnResult | null {
  const asks = unansweredAsks(quotes, read);
  if (asks.length === 0 || conversation.results.some((result) => idOf(result).startsWith(NEXT))) return null;
  return {
    kind: 'tools',
    calls: [{ id: `${NEXT}review`, name: 'review_sources', sourceCatalogUris: [...new Set(asks)] }],
  };
}

/** An addendum quoted: find what it changes (the section or sheet it names), then read it, to cite both. */
function whatAddendaChange(conversation: Conversation, changes: Quote[]): TurnResult | null {
  if (changes.length === 0) return null;
  const followed = conversation.results.filter((result) => idOf(result).startsWith(ORIGINAL));
  const references = [...new Set(changes.flatMap((quote) => referencesOf(quote.sentence)))].slice(0, 2);
  if (followed.length === 0 && references.length > 0)
    return {
      kind: 'tools',
      calls: references.map((reference, index) => ({
        id: `${ORIGINAL}search:${index}`,
        name: 'search_sources' as const,
        query: reference,
        modes: ['exact' as const],
      })),
    };
  if (followed.length === 0 || followed.some((result) => result.call.name === 'review_sources')) return null;
  const addendumFiles = new Set(changes.map((quote) => quote.source.fileName));
  const uris = [
    ...new Set(
      followed
        .flatMap((result) => (result.hits ?? []).slice(0, 3))
        .filter((hit) => !addendumFiles.has(hit.fileName) && hit.matchedModes.includes('exact'))
        .map((hit) => hit.sourceCatalogUri),
    ),
  ].slice(0, 4);
  if (uris.length === 0) return null;
  return {
    kind: 'tools',
    calls: [{ id: `${ORIGINAL}review`, name: 'review_sources', sourceCatalogUris: uris }],
  };
}

/** A line of the answer, with the citation of the quote it carries. */
interface AnswerLine {
  text: string;
  citation?: DraftCitation;
}

function nothingFound(reviewed: number): AnswerLine {
  return {
    text:
      reviewed === 0
        ? "I found nothing in this project's documents that answers this question."
        : `I read ${reviewed} source${reviewed === 1 ? '' : 's'} of this project and none of them states an answer to this question.`,
  };
}

/** Addenda change what they reissue: their quotes first, and said so, each followed by what it changes. */
function quotedLines(quotes: Quote[], changes: Quote[], originals: ReviewedSource[]): AnswerLine[] {
  const ordered: (Quote & { replaced?: boolean })[] = [];
  for (const quote of [...changes, ...quotes.filter((quote) => !changes.includes(quote))]) {
    ordered.push(quote);
    const original = quote.source.classification === 'addenda' ? originalOf(quote, originals) : null;
    if (original && !ordered.some((entry) => entry.sentence === original.sentence))
      ordered.push({ ...original, replaced: true });
  }
  const lines: AnswerLine[] = [
    { text: "Quoted from the project's documents (extractive answer, no paraphrase):" },
  ];
  for (const [index, quote] of ordered.entries()) {
    const marker = index + 1;
    const later =
      quote.source.classification === 'addenda'
        ? `${addendumName(quote.source)}, which governs over earlier documents: `
        : quote.replaced
          ? 'Earlier document, changed by the addendum above: '
          : '';
    lines.push({
      text: `- ${later}${where(quote.source)}: “${quote.sentence}” [${marker}]`,
      citation: {
        marker,
        sourceCatalogUri: quote.source.sourceCatalogUri,
        quote: quote.sentence.replace(/ …$/, ''),
      },
    });
  }
  return lines;
}
