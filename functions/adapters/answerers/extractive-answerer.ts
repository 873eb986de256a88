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
import { analyzeQuery, analyzeText } from '../../core/search/analyzer.ts';

/**
 * The local answerer, with no language model: it searches (exact and semantic), reviews the sources
 * the exact search found, and answers with sentences quoted from them, each with its citation. It
 * says so in its answer, and says plainly when nothing it read states an answer. Deterministic: the
 * same sources give the same answer (a retried step writes the same events).
 */

/** Sentences kept in an answer, and from one source. */
const MAX_QUOTES = 4;
const MAX_QUOTES_PER_SOURCE = 2;
/** Share of the question's weight (see bestQuotes) a sentence must hold to be quoted. */
const MIN_COVERAGE = 0.45;
const SENTENCE = { min: 20, max: 400 };

export interface Quote {
  source: ReviewedSource;
  sentence: string;
  coverage: number;
  rank: number;
}

/** Identifiers (sheet and section numbers, sizes) weigh more than words. */
/**
 * Words that phrase a question rather than name what it is about (`how long`, `required`, `apply`,
 * `say`): a quarter of a word's weight.
 */
const SCAFFOLD = new Set(
  analyzeQuery(
    'how long much many required requires apply applies say says cover covers mean use used late reach keep kept disagree disagrees conflict conflicts govern governs correct differ differs still',
  ).terms,
);
const weightOf = (term: string) => (/\d/.test(term) ? 2 : SCAFFOLD.has(term) ? 0.25 : 1);

/** Lines that are not prose: table-of-contents entries (dot leaders). */
const NOT_PROSE = /\.{4,}|…{2,}/;

/**
 * Sentences of a passage: lines of one paragraph are joined (extracted text breaks lines where the
 * page did), a new paragraph starts at a blank line or a list marker (`A.`, `1.`, `(a)`), and
 * sentences end at `.`, `!`, `?` or `;` before a capital or a digit.
 */
function sentencesOf(text: string): string[] {
  return text
    .replace(/\n(?=\s*(?:[A-Z]\.|\d{1,2}\.|\([A-Za-z0-9]{1,3}\))\s)/g, '\n\n')
    .split(/\n\s*\n/)
    .flatMap((paragraph) =>
      paragraph
        .replace(/\s+/g, ' ')
        .trim()
        .split(/(?<=[.!?;])\s+(?=[A-Z0-9"“(])/),
    )
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= SENTENCE.min && !NOT_PROSE.test(sentence))
    .map((sentence) =>
      sentence.length > SENTENCE.max
        ? `${sentence.slice(0, SENTENCE.max).replace(/\s+\S*$/, '')} …`
        : sentence,
    );
}

/**
 * What the question asks for: a quantity (`how long`, `how much`, …: the answer holds a number),
 * and the thing a `what`/`which` question names before its verb (`What R-value is required`: the
 * answer names an R-value).
 */
function questionShape(question: string): { number: boolean; focus: string[] } {
  const number =
    /\bhow\s+(?:long|much|many|far|thick|wide|deep|high|tall|big|large|often|soon|heavy)\b/i.test(question);
  const match =
    /\b(?:what|which)\s+((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:is|are|was|were|must|should|shall|does|do|did|can|will|has|have)\b/i.exec(
      question,
    );
  const focus = match ? analyzeQuery((match[1] as string).replace(/^(?:the|a|an)\s+/i, '')).terms : [];
  return { number, focus };
}

/**
 * The parts of a question that asks several things (`How long …, and what damages apply?`, two
 * sentences): each part is searched and answered on its own. Split at a question mark, and at `and`
 * or a comma before a question word; a piece that asks nothing belongs to the next. The phrases that
 * name the files searched (`on the Paul Ave contract`, see withoutNaming) are left out.
 */
export function questionParts(question: string, namingFiles: string[] = []): string[] {
  const pieces = question
    .split(
      /\?\s+|[,;]?\s+and\s+(?=(?:what|which|how|when|where|who|whom|why|is|are|does|do|did|can)\b)|,\s+(?=(?:what|which|how|when|where|who|whom|why)\b)/i,
    )
    .map((part) => withoutNaming(part.trim(), namingFiles))
    .filter((part) => analyzeQuery(part).terms.length > 0);
  const parts: string[] = [];
  let pending = '';
  for (const piece of pieces) {
    if (!ASKING.test(piece)) pending = `${pending}${piece}, `;
    else {
      parts.push(`${pending}${piece}`);
      pending = '';
    }
  }
  if (pending) parts.push(pending.replace(/, $/, ''));
  return parts.length > 0 ? parts : [question];
}
const ASKING =
  /\b(?:what|which|how|when|where|who|whom|why|whose|is|are|does|do|did|can|must|should|shall|will|list|name|describe|explain|compare)\b/i;

/** A phrase that names a document or contract (`for the … building contract`, `on the … drawings`). */
const NAMING_PHRASE =
  /\b(?:on|for|of|in|at|under)\s+(?:the\s+)?(?:(?!(?:on|for|of|in|at|under|from|to|with)\b)[\w'’.&-]+,?\s+){0,8}?(?:contract|project|job|drawings|plans|specifications|specs|manual|addendum|addenda|set)\b/gi;

/**
 * A piece of a question without the phrases that name the files its search is limited to: a phrase
 * that names a document or contract and holds a word of those files' names.
 */
export function withoutNaming(piece: string, fileNames: string[]): string {
  if (fileNames.length === 0) return piece;
  const naming = new Set(
    fileNames.flatMap((name) => analyzeText(name.replace(/\.pdf$/i, '').replace(/[-_.]/g, ' ')).split(' ')),
  );
  return piece
    .replace(NAMING_PHRASE, (phrase) =>
      analyzeQuery(phrase).terms.some((term) => naming.has(term)) ? ' ' : phrase,
    )
    .replace(/\s+([,?])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The files a question names (`the Ochlocknee … contract`, `the Paul Ave drawings`): among the
 * files seen, a question word in some files' names but not all tells them apart; the files holding
 * the most such words are the ones meant. None when no word tells
 * the files apart (every file is named alike, or none is named).
 */
export function namedFiles(question: string, fileNames: string[]): string[] {
  const terms = new Set(analyzeQuery(question).terms);
  const names = [...new Set(fileNames)];
  const held = new Map(
    names.map((name) => [
      name,
      new Set(
        analyzeText(name.replace(/\.pdf$/i, '').replace(/[-_.]/g, ' '))
          .split(' ')
          .filter((token) => terms.has(token)),
      ),
    ]),
  );
  const telling = [...terms].filter((term) => {
    const count = [...held.values()].filter((tokens) => tokens.has(term)).length;
    return count > 0 && count < names.length;
  });
  const score = (name: string) => telling.filter((term) => held.get(name)?.has(term)).length;
  const best = Math.max(0, ...names.map(score));
  return best === 0 ? [] : names.filter((name) => score(name) === best);
}

interface Candidate {
  source: ReviewedSource;
  sentence: string;
  tokens: Set<string>;
  context: Set<string>;
  rank: number;
}

/** The page source after a page source (`…/pages/3` → `…/pages/4`), or null for other sources. */
export function nextPageUri(uri: string): string | null {
  const match = /^(.*\/pages\/)(\d+)$/.exec(uri);
  return match ? `${match[1]}${Number(match[2]) + 1}` : null;
}

/** A sentence that asks (an addendum's bidder question), and one that answers it (`Answer: …`). */
const ASKS = /\?["”]?$/;
const ANSWERS = /^(?:answer|response|reply|a)\s*[:.-]\s*/i;
/** An answer that starts after what the page repeats at its top (`2024-19 Camilla Gymnasium ADDENDUM NO. 4 Answer: …`). */
const ANSWER_AFTER_HEADER = /^.{0,100}?\b(?=(?:answer|response|reply)\s*:)/i;
/** The first answer of a page, from its `Answer:` on. */
function firstAnswer(candidates: Candidate[]): string | undefined {
  for (const { sentence } of candidates) {
    if (ANSWERS.test(sentence)) return sentence;
    const header = ANSWER_AFTER_HEADER.exec(sentence);
    if (header) return sentence.slice(header[0].length);
  }
  return undefined;
}

/** Every sentence of the sources read, in order, with what names its source. */
function candidatesOf(sources: ReviewedSource[]): Candidate[] {
  const candidates: Candidate[] = [];
  // A sentence said by two sources (a section and its part) is quoted once, from the first.
  const seen = new Set<string>();
  for (const [rank, source] of sources.entries()) {
    // What names the source and its file (sheet, section, project) is context, not an answer.
    const context = new Set(
      analyzeText(`${source.source.label} ${source.fileName.replace(/[-_.]/g, ' ')}`).split(' '),
    );
    for (const passage of source.passages)
      for (const sentence of sentencesOf(passage.text)) {
        if (seen.has(sentence)) continue;
        seen.add(sentence);
        candidates.push({
          source,
          sentence,
          tokens: new Set(analyzeText(sentence).split(' ')),
          context,
          rank,
        });
      }
  }
  return candidates;
}

/**
 * Where a quoted sentence's bidder question is answered (`… says 750 gallons. Can you confirm which is
 * correct?` then `Answer: …`): the quoted sentence or one of the two after it asks; the answer is
 * right after it (maybe after a repeated page header), or, when at most a footer follows the question
 * on its page, on the next page.
 */
function askedAt(quote: Quote): { rest: Candidate[] } | null {
  const own = candidatesOf([quote.source]);
  const index = own.findIndex((entry) => entry.sentence === quote.sentence);
  if (index < 0) return null;
  const asking = own.slice(index, index + 3).findIndex((entry) => ASKS.test(entry.sentence));
  return asking < 0 ? null : { rest: own.slice(index + asking + 1) };
}

function answerTo(quote: Quote, sources: ReviewedSource[]): Quote | null {
  const asked = askedAt(quote);
  if (!asked) return null;
  const here = firstAnswer(asked.rest.slice(0, 2));
  if (here) return { ...quote, sentence: here };
  if (asked.rest.length > 1) return null;
  const following = nextPageUri(quote.source.sourceCatalogUri);
  const page = sources.find((source) => source.sourceCatalogUri === following);
  const answer = page ? firstAnswer(candidatesOf([page]).slice(0, 3)) : undefined;
  return page && answer ? { ...quote, source: page, sentence: answer } : null;
}

/** A quoted bidder's question that ends its page (at most a footer after it, no answer). */
function askEndsPage(quote: Quote): boolean {
  const asked = askedAt(quote);
  return asked !== null && asked.rest.length <= 1 && firstAnswer(asked.rest) === undefined;
}

/** Quoted bidder questions that end their page, whose answer is on the next page (not read yet). */
export function unansweredAsks(quotes: Quote[], sources: ReviewedSource[]): string[] {
  return quotes.flatMap((quote) => {
    const following = nextPageUri(quote.source.sourceCatalogUri);
    return following && askEndsPage(quote) && !sources.some((source) => source.sourceCatalogUri === following)
      ? [following]
      : [];
  });
}

/**
 * The sentences that answer one part of a question: each of its terms weighs by how rare it is
 * among the sentences read (idf, identifiers double); a sentence scores its own terms, and half of
 * the terms its source's name holds (what sheet A-101 says about X is a sentence of sheet A-101).
 * Coverage is the share of the weight of the part's terms that a sentence holds (a word only the
 * sources' names hold counts at half, what a sentence of such a source gets for it). A quote needs two of
 * the part's terms of its own (or one identifier, or the one term a part has beside the source's
 * name) and half of that weight.
 */
function partQuotes(part: string, candidates: Candidate[]): Quote[] {
  const terms = analyzeQuery(part).terms;
  if (terms.length === 0) return [];
  const shape = questionShape(part);
  const documentFrequency = new Map(
    terms.map((term) => [term, candidates.filter((candidate) => candidate.tokens.has(term)).length]),
  );
  // A term no sentence holds weighs as the rarest: a question whose specific word (an R-value) no
  // source has is not answered by sentences that hold its other words.
  const weight = (term: string) =>
    Math.log(1 + candidates.length / (1 + (documentFrequency.get(term) ?? 0))) * weightOf(term);
  const named = (term: string) => candidates.some((candidate) => candidate.context.has(term));
  // A word only the sources' names hold counts at the half a sentence of those sources gets for it.
  const total = terms.reduce(
    (sum, term) => sum + ((documentFrequency.get(term) ?? 0) === 0 && named(term) ? 0.5 : 1) * weight(term),
    0,
  );
  if (total === 0) return [];
  const quotes: Quote[] = [];
  for (const candidate of candidates) {
    const own = terms.filter((term) => candidate.tokens.has(term) && !candidate.context.has(term));
    // Two of the part's own words (one when the part has only one beside what names the source).
    const askable = terms.filter((term) => !candidate.context.has(term) && weightOf(term) >= 1).length;
    if (own.length === 0 || (own.length < Math.min(2, askable) && !own.some((term) => /\d/.test(term))))
      continue;
    // A quantity asked for is a number in the answer; the thing a what/which question names is in it.
    if (shape.number && !/\d/.test(candidate.sentence)) continue;
    const focus = shape.focus.filter((term) => !candidate.context.has(term));
    if (focus.length > 0 && !focus.some((term) => candidate.tokens.has(term))) continue;
    const score =
      own.reduce((sum, term) => sum + weight(term), 0) +
      0.5 *
        terms
          .filter((term) => !own.includes(term) && candidate.context.has(term))
          .reduce((sum, term) => sum + weight(term), 0);
    const coverage = score / total;
    if (coverage >= MIN_COVERAGE)
      quotes.push({ source: candidate.source, sentence: candidate.sentence, coverage, rank: candidate.rank });
  }
  return quotes.sort((a, b) => b.coverage - a.coverage || a.rank - b.rank);
}

/**
 * The quotes of an answer: the best of each part of the question in turn (so a two-part question
 * gets both answers), at most MAX_QUOTES, MAX_QUOTES_PER_SOURCE of one source; a bidder's question
 * quoted carries its answer.
 */
function bestQuotes(parts: string[], sources: ReviewedSource[]): Quote[] {
  const candidates = candidatesOf(sources);
  const ranked = parts.map((part) => partQuotes(part, candidates));
  const perSource = new Map<string, number>();
  const chosen: Quote[] = [];
  const take = (quote: Quote) => {
    const count = perSource.get(quote.source.sourceCatalogUri) ?? 0;
    if (count >= MAX_QUOTES_PER_SOURCE || chosen.some((entry) => entry.sentence === quote.sentence))
      return false;
    perSource.set(quote.source.sourceCatalogUri, count + 1);
    chosen.push(quote);
    return true;
  };
  // Round robin over the parts: each part's best first, then the seconds, …
  for (let round = 0; chosen.length < MAX_QUOTES && ranked.some((quotes) => quotes.length > round); round++)
    for (const quotes of ranked) {
      const quote = quotes[round];
      if (quote && chosen.length < MAX_QUOTES) take(quote);
    }
  return chosen.flatMap((quote) => {
    const answer = answerTo(quote, sources);
    return answer && !chosen.some((entry) => entry.sentence === answer.sentence) ? [quote, answer] : [quote];
  });
}

/**
 * An addendum as it names itself (`Addendum No. 4`, and its date when the source prints one), or as
 * its file is named; `Addendum` when neither says.
 */
export function addendumName(source: ReviewedSource): string {
  const text = source.passages.map((passage) => passage.text).join('\n');
  const number =
    /\bADDENDUM\s+(?:NO\.?|NUMBER|#)\s*(\d{1,3})\b/i.exec(text)?.[1] ??
    /addendum[-_\s]*(?:no[-_.\s]*)?0*(\d{1,3})\b/i.exec(source.fileName)?.[1];
  const date =
    /\b(?:(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},\s+\d{4}|\d{1,2}\/\d{1,2}\/\d{2,4})\b/i.exec(
      text,
    )?.[0];
  return `Addendum${number ? ` No. ${number}` : ''}${date ? ` (${date})` : ''}`;
}

/** What an addendum's sentence points at in earlier documents: section numbers and sheet numbers. */
export function referencesOf(sentence: string): string[] {
  const sections = sentence.match(/\b\d{2} \d{2} \d{2}\b/g) ?? [];
  const sheets = [
    ...sentence.matchAll(/\b(?:sheets?|drawings?|dwg\.?)\s+([A-Z]{1,2}-?\d{1,3}(?:\.\d{1,2})?[A-Z]?)\b/gi),
  ].map((match) => match[1] as string);
  return [...new Set([...sections, ...sheets])];
}

/** The sentence of the earlier sources that says most of what the addendum's sentence changes. */
function originalOf(addendum: Quote, sources: ReviewedSource[]): Quote | null {
  const terms = new Set(analyzeText(addendum.sentence).split(' '));
  let best: Quote | null = null;
  let bestShared = 2;
  for (const [rank, source] of sources.entries())
    for (const passage of source.passages)
      for (const sentence of sentencesOf(passage.text)) {
        const shared = analyzeText(sentence)
          .split(' ')
          .filter((token, index, all) => terms.has(token) && all.indexOf(token) === index).length;
        if (shared > bestShared) {
          best = { source, sentence, coverage: shared, rank };
          bestShared = shared;
        }
      }
  return best;
}

const ORIGINAL = 'original:';
const NAMED = 'named:';
const NEXT = 'next:';

const where = (source: ReviewedSource) =>
  `${source.source.label} (${source.fileName}, p. ${source.pageStart}${source.pageEnd > source.pageStart ? `–${source.pageEnd}` : ''})`;

export class ExtractiveAnswerer implements Answerer {
  readonly kind = 'extractive' as const;
  readonly deterministic = true;

  async turn(
    conversation: Conversation,
    emit: (delta: string) => Promise<void>,
    final: boolean,
  ): Promise<TurnResult> {
    const question = conversation.question;
    const idOf = (result: ToolResult) => result.call.id ?? '';
    const searches = conversation.results.filter(
      (result) => result.call.name === 'search_sources' && !idOf(result).startsWith(ORIGINAL),
    );
    if (searches.length === 0 && !final)
      return {
        kind: 'tools',
        calls: [{ name: 'search_sources', query: question, modes: ['exact', 'semantic'] }],
      };
    // The files the question names (`the Ochlocknee contract`): searched on their own, and the only ones read.
    const named = namedFiles(
      question,
      searches.flatMap((result) => (result.hits ?? []).map((hit) => hit.fileName)),
    ).slice(0, 3);
    const namedSearches = searches.filter((result) => idOf(result).startsWith(NAMED));
    const parts = questionParts(question, named);
    // Each part of the question searched on its own, in the files it names (without the naming words).
    if ((named.length > 0 || parts.length > 1) && namedSearches.length === 0 && !final) {
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
    const reviewed = reviewedSources(conversation);
    if (reviewed.size === 0 && !final) {
      // A source the words of the question found (not a nearest neighbour alone) is worth reading:
      // those of the named files' own searches first, a file each in turn.
      const lists = [...namedSearches, ...searches.filter((result) => !namedSearches.includes(result))].map(
        (result) => result.hits ?? [],
      );
      const ordered = Array.from({ length: Math.max(0, ...lists.map((hits) => hits.length)) }, (_, index) =>
        lists.flatMap((hits) => (hits[index] ? [hits[index]] : [])),
      ).flat();
      const uris = [
        ...new Set(
          ordered
            .filter(
              (hit) =>
                hit.matchedModes.includes('lexical') && (named.length === 0 || named.includes(hit.fileName)),
            )
            .map((hit) => hit.sourceCatalogUri),
        ),
      ].slice(0, 2 * CONVERSATION_LIMITS.sourcesPerReview);
      // Two reviews at most (each reads CONVERSATION_LIMITS.sourcesPerReview sources).
      const batches = [
        uris.slice(0, CONVERSATION_LIMITS.sourcesPerReview),
        uris.slice(CONVERSATION_LIMITS.sourcesPerReview),
      ];
      if (uris.length > 0)
        return {
          kind: 'tools',
          calls: batches
            .filter((batch) => batch.length > 0)
            .map((batch) => ({ name: 'review_sources' as const, sourceCatalogUris: batch })),
        };
    }
    // The sources read for the question, and those read to find what an addendum changes.
    const sourcesOf = (original: boolean) =>
      conversation.results
        .filter((result) => idOf(result).startsWith(ORIGINAL) === original)
        .flatMap((result) => result.sources ?? []);
    const read = [...new Map(sourcesOf(false).map((source) => [source.sourceCatalogUri, source])).values()];
    const quotes = bestQuotes(parts, read);
    // A bidder's question quoted whose answer starts the next page: read that page.
    const asks = unansweredAsks(quotes, read);
    if (!final && asks.length > 0 && !conversation.results.some((result) => idOf(result).startsWith(NEXT)))
      return {
        kind: 'tools',
        calls: [{ id: `${NEXT}review`, name: 'review_sources', sourceCatalogUris: [...new Set(asks)] }],
      };
    const changes = quotes.filter((quote) => quote.source.classification === 'addenda');
    const followed = conversation.results.filter((result) => idOf(result).startsWith(ORIGINAL));
    if (!final && changes.length > 0) {
      // An addendum quoted: find what it changes (the section or sheet it names), to cite both.
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
      const addendumFiles = new Set(changes.map((quote) => quote.source.fileName));
      if (followed.length > 0 && !followed.some((result) => result.call.name === 'review_sources')) {
        const uris = [
          ...new Set(
            followed
              .flatMap((result) => (result.hits ?? []).slice(0, 3))
              .filter((hit) => !addendumFiles.has(hit.fileName) && hit.matchedModes.includes('lexical'))
              .map((hit) => hit.sourceCatalogUri),
          ),
        ].slice(0, 4);
        if (uris.length > 0)
          return {
            kind: 'tools',
            calls: [{ id: `${ORIGINAL}review`, name: 'review_sources', sourceCatalogUris: uris }],
          };
      }
    }
    const originals = sourcesOf(true).filter((source) => source.classification !== 'addenda');
    const lines: string[] = [];
    const citations: DraftCitation[] = [];
    if (quotes.length === 0) {
      lines.push(
        reviewed.size === 0
          ? "I found nothing in this project's documents that answers this question."
          : `I read ${reviewed.size} source${reviewed.size === 1 ? '' : 's'} of this project and none of them states an answer to this question.`,
      );
    } else {
      // Addenda change what they reissue: their quotes first, and said so, each followed by what it changes.
      const ordered: (Quote & { replaced?: boolean })[] = [];
      for (const quote of [...changes, ...quotes.filter((quote) => !changes.includes(quote))]) {
        ordered.push(quote);
        const original = quote.source.classification === 'addenda' ? originalOf(quote, originals) : null;
        if (original && !ordered.some((entry) => entry.sentence === original.sentence))
          ordered.push({ ...original, replaced: true });
      }
      lines.push("Quoted from the project's documents (extractive answer, no paraphrase):");
      for (const [index, quote] of ordered.entries()) {
        const marker = index + 1;
        const later =
          quote.source.classification === 'addenda'
            ? `${addendumName(quote.source)}, which governs over earlier documents: `
            : quote.replaced
              ? 'Earlier document, changed by the addendum above: '
              : '';
        lines.push(`- ${later}${where(quote.source)}: “${quote.sentence}” [${marker}]`);
        citations.push({
          marker,
          sourceCatalogUri: quote.source.sourceCatalogUri,
          quote: quote.sentence.replace(/ …$/, ''),
        });
      }
    }
    const text = lines.join('\n');
    for (const [index, line] of lines.entries()) await emit(index === 0 ? line : `\n${line}`);
    return { kind: 'answer', answer: { text, citations } };
  }
}
