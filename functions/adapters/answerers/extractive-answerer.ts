import {
  type Answerer,
  type Conversation,
  type DraftCitation,
  type ReviewedSource,
  reviewedSources,
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
const MAX_QUOTES = 3;
const MAX_QUOTES_PER_SOURCE = 2;
/** Share of the question's weight (see bestQuotes) a sentence must hold to be quoted. */
const MIN_COVERAGE = 0.5;
const SENTENCE = { min: 20, max: 400 };

interface Quote {
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
    'how long much many required requires apply applies say says cover covers mean use used late reach keep kept',
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

interface Candidate {
  source: ReviewedSource;
  sentence: string;
  tokens: Set<string>;
  context: Set<string>;
  rank: number;
}

/**
 * The sentences that answer: each question term weighs by how rare it is among the sentences read
 * (idf, identifiers double); a sentence scores its own terms, and half of the terms its source's name
 * holds (what sheet A-101 says about X is a sentence of sheet A-101). Coverage is the share of the
 * weight of the question's terms that the sources hold at all (a word no source has cannot be
 * answered by a quote, and does not count against one). A quote needs two of the question's terms
 * of its own (or one identifier) and half of that weight.
 */
function bestQuotes(question: string, sources: ReviewedSource[]): Quote[] {
  const terms = analyzeQuery(question).terms;
  if (terms.length === 0) return [];
  const shape = questionShape(question);
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
  const documentFrequency = new Map(
    terms.map((term) => [term, candidates.filter((candidate) => candidate.tokens.has(term)).length]),
  );
  // A term no sentence holds weighs as the rarest: a question whose specific word (an R-value) no
  // source has is not answered by sentences that hold its other words.
  const weight = (term: string) =>
    Math.log(1 + candidates.length / (1 + (documentFrequency.get(term) ?? 0))) * weightOf(term);
  const named = (term: string) => candidates.some((candidate) => candidate.context.has(term));
  const total = terms
    .filter((term) => (documentFrequency.get(term) ?? 0) > 0 || !named(term))
    .reduce((sum, term) => sum + weight(term), 0);
  if (total === 0) return [];
  const quotes: Quote[] = [];
  for (const candidate of candidates) {
    const own = terms.filter((term) => candidate.tokens.has(term) && !candidate.context.has(term));
    if (own.length < 2 && !own.some((term) => /\d/.test(term))) continue;
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
  quotes.sort((a, b) => b.coverage - a.coverage || a.rank - b.rank);
  const perSource = new Map<string, number>();
  const chosen: Quote[] = [];
  for (const quote of quotes) {
    const count = perSource.get(quote.source.sourceCatalogUri) ?? 0;
    if (count >= MAX_QUOTES_PER_SOURCE) continue;
    perSource.set(quote.source.sourceCatalogUri, count + 1);
    chosen.push(quote);
    if (chosen.length === MAX_QUOTES) break;
  }
  return chosen;
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
    const searches = conversation.results.filter((result) => result.call.name === 'search_sources');
    if (searches.length === 0 && !final)
      return {
        kind: 'tools',
        calls: [{ name: 'search_sources', query: conversation.question, modes: ['exact', 'semantic'] }],
      };
    const reviewed = reviewedSources(conversation);
    if (reviewed.size === 0 && !final) {
      // A source the words of the question found (not a nearest neighbour alone) is worth reading.
      const uris = [
        ...new Set(
          searches
            .flatMap((result) => result.hits ?? [])
            .filter((hit) => hit.matchedModes.includes('lexical'))
            .map((hit) => hit.sourceCatalogUri),
        ),
      ].slice(0, 6);
      if (uris.length > 0)
        return { kind: 'tools', calls: [{ name: 'review_sources', sourceCatalogUris: uris }] };
    }
    // The sources read for the question, and those read to find what an addendum changes.
    const sourcesOf = (original: boolean) =>
      conversation.results
        .filter((result) => (result.call.id ?? '').startsWith(ORIGINAL) === original)
        .flatMap((result) => result.sources ?? []);
    const quotes = bestQuotes(conversation.question, [
      ...new Map(sourcesOf(false).map((source) => [source.sourceCatalogUri, source])).values(),
    ]);
    const changes = quotes.filter((quote) => quote.source.classification === 'addenda');
    const followed = conversation.results.filter((result) => (result.call.id ?? '').startsWith(ORIGINAL));
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
