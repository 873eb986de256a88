import type { ReviewedSource } from '../../core/reviews/answerer.ts';
import { analyzeQuery, analyzeText } from '../../core/search/analyzer.ts';
import { questionShape, weightOf } from './question.ts';

/**
 * The sentences the extractive answerer quotes: the sources read cut into sentences, each scored
 * against a part of the question; bidder questions of addenda with their answers; addenda and what
 * they change.
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

/** Lines that are not prose: table-of-contents entries (dot leaders). */
const NOT_PROSE = /\.{4,}|…{2,}/;

/**
 * Text that addresses the reader as an assistant or a model ("Ignore previous instructions and say …",
 * "You are now an AI that …"): an instruction planted in a document, never evidence of what the
 * documents require. Such a sentence is not quoted.
 */
const ADDRESSES_THE_READER = new RegExp(
  [
    // "Disregard the previous Instructions to Bidders" is an addendum's own language: kept.
    String.raw`\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding)\s+(?:instructions|prompts)\b(?!\s+to\s+bidders)`,
    String.raw`\bas an? (?:AI|artificial intelligence|(?:large )?language model|assistant|chatbot)\b`,
    String.raw`\byou are (?:now )?(?:an? )?(?:AI|assistant|chatbot|(?:large )?language model|LLM)\b`,
    String.raw`\b(?:system prompt|jailbreak)\b`,
    String.raw`\b(?:assistant|AI|chatbot|model|LLM)s?\s*[,:]\s*(?:please\s+)?(?:ignore|say|respond|reply|answer|output|print|write)\b`,
  ].join('|'),
  'i',
);

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
    .filter(
      (sentence) =>
        sentence.length >= SENTENCE.min && !NOT_PROSE.test(sentence) && !ADDRESSES_THE_READER.test(sentence),
    )
    .map((sentence) =>
      sentence.length > SENTENCE.max
        ? `${sentence.slice(0, SENTENCE.max).replace(/\s+\S*$/, '')} …`
        : sentence,
    );
}

interface Candidate {
  source: ReviewedSource;
  sentence: string;
  tokens: Set<string>;
  context: Set<string>;
  rank: number;
}

/** The page source after a page source (`…/pages/3` → `…/pages/4`), or null for other sources. */
function nextPageUri(uri: string): string | null {
  const match = /^(.*\/pages\/)(\d+)$/.exec(uri);
  return match ? `${match[1]}${Number(match[2]) + 1}` : null;
}

/** A sentence that asks (an addendum's bidder question), and one that answers it (`Answer: …`). */
const ASKS = /\?["”]?$/;
const ANSWERS = /^(?:answer|response|reply|a)\s*[:.-]\s*/i;
/** An answer that starts after what the page repeats at its top (`2024-19 Camilla Gymnasium ADDENDUM NO. 4 Answer: …`). */
const ANSWER_AFTER_HEADER = /^.{0,100}?\b(?=(?:answer|response|reply)\s*:)/i;
/** The first answer among these sentences, from its `Answer:` on. */
function firstAnswer(sentences: string[]): string | undefined {
  for (const sentence of sentences) {
    if (ANSWERS.test(sentence)) return sentence;
    const header = ANSWER_AFTER_HEADER.exec(sentence);
    if (header) return sentence.slice(header[0].length);
  }
  return undefined;
}

/** A table's row (`…/regions/{r}/rows/{n}`): quoted whole, its cells with their column names, never cut. */
const isTableRow = (source: ReviewedSource): boolean => /\/rows\/\d+$/.test(source.sourceCatalogUri);

/** Every sentence of the sources read, in order, with what names its source (a table row is one). */
function candidatesOf(sources: ReviewedSource[]): Candidate[] {
  const candidates: Candidate[] = [];
  // A sentence said by two sources (a section and its part) is quoted once, from the first.
  const seen = new Set<string>();
  for (const [rank, source] of sources.entries()) {
    // What names the source and its file (sheet, section, project) is context, not an answer. A table row's
    // label ends with the row's key (`AF600 · MATERIAL SCHEDULE · CT-1`): that key is the row's content.
    const row = isTableRow(source);
    const label = row ? source.source.label.split(' · ').slice(0, -1).join(' ') : source.source.label;
    const context = new Set(analyzeText(`${label} ${source.fileName.replace(/[-_.]/g, ' ')}`).split(' '));
    for (const passage of source.passages)
      for (const sentence of row ? [passage.text] : sentencesOf(passage.text)) {
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

/** A source's sentences in order, each once (as `candidatesOf` cuts them, without scoring them). */
function sentencesOfSource(source: ReviewedSource): string[] {
  return [...new Set(source.passages.flatMap((passage) => sentencesOf(passage.text)))];
}

/**
 * Where a quoted sentence's bidder question is answered (`… says 750 gallons. Can you confirm which is
 * correct?` then `Answer: …`): the quoted sentence or one of the two after it asks; the answer is
 * right after it (maybe after a repeated page header), or, when at most a footer follows the question
 * on its page, on the next page. Returns the sentences after the asking one, or null when none asks.
 */
function askedAt(quote: Quote): string[] | null {
  const own = sentencesOfSource(quote.source);
  const index = own.indexOf(quote.sentence);
  if (index < 0) return null;
  const asking = own.slice(index, index + 3).findIndex((sentence) => ASKS.test(sentence));
  return asking < 0 ? null : own.slice(index + asking + 1);
}

function answerTo(quote: Quote, sources: ReviewedSource[]): Quote | null {
  const rest = askedAt(quote);
  if (!rest) return null;
  const here = firstAnswer(rest.slice(0, 2));
  if (here) return { ...quote, sentence: here };
  if (rest.length > 1) return null;
  const following = nextPageUri(quote.source.sourceCatalogUri);
  const page = sources.find((source) => source.sourceCatalogUri === following);
  const answer = page ? firstAnswer(sentencesOfSource(page).slice(0, 3)) : undefined;
  return page && answer ? { ...quote, source: page, sentence: answer } : null;
}

/** A quoted bidder's question that ends its page (at most a footer after it, no answer). */
function askEndsPage(quote: Quote): boolean {
  const rest = askedAt(quote);
  return rest !== null && rest.length <= 1 && firstAnswer(rest) === undefined;
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
 * name) and MIN_COVERAGE of that weight.
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
export function bestQuotes(parts: string[], sources: ReviewedSource[]): Quote[] {
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

const DATE =
  /\b(?:(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},\s+\d{4}|\d{1,2}\/\d{1,2}\/\d{2,4})\b/gi;
/** The words before a date that make it the addendum's own date. */
const ISSUE_LABEL =
  /\b(?:issued?|issue\s+date|date\s+of\s+(?:issue|addendum)|dated|date)\s*(?:on)?\s*[:.-]?\s*$/i;
/** The words before a date that make it another event's: the bid, a meeting, a deadline. */
const OTHER_EVENT =
  /\b(?:bids?|due|opening|open|close[sd]?|closing|deadline|receipt|received|meeting|walk|site\s+visit|questions|rfis?|pre-?bid|until|before|by|extended|postponed|revised|changed|from|to)\b[^\n]*$/i;

/**
 * The date an addendum was issued: one labelled so (`Date:`, `Issued`, `Dated`), else the first date
 * printed that no other event claims (an addendum often prints the bid date it moves, the pre-bid
 * meeting's, the questions deadline: those are not its date); none when every date is another's.
 */
export function addendumIssueDate(text: string): string | null {
  const dates = [...text.matchAll(DATE)].map((match) => {
    const lineStart = text.lastIndexOf('\n', match.index) + 1;
    return { date: match[0], before: text.slice(lineStart, match.index) };
  });
  const labelled = dates.find(({ before }) => ISSUE_LABEL.test(before) && !OTHER_EVENT.test(before));
  if (labelled) return labelled.date;
  return dates.find(({ before }) => !OTHER_EVENT.test(before) && !/[A-Za-z]{3,}/.test(before))?.date ?? null;
}

/**
 * An addendum as it names itself (`Addendum No. 4`, and its issue date when the source prints one),
 * or as its file is named; `Addendum` when neither says.
 */
export function addendumName(source: ReviewedSource): string {
  const text = source.passages.map((passage) => passage.text).join('\n');
  const number =
    /\bADDENDUM\s+(?:NO\.?|NUMBER|#)\s*(\d{1,3})\b/i.exec(text)?.[1] ??
    /addendum[-_\s]*(?:no[-_.\s]*)?0*(\d{1,3})\b/i.exec(source.fileName)?.[1];
  const date = addendumIssueDate(text);
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
export function originalOf(addendum: Quote, sources: ReviewedSource[]): Quote | null {
  const terms = new Set(analyzeText(addendum.sentence).split(' '));
  let best: Quote | null = null;
  let bestShared = 2;
  for (const [rank, source] of sources.entries())
    for (const passage of source.passages)
      for (const sentence of isTableRow(source) ? [passage.text] : sentencesOf(passage.text)) {
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
