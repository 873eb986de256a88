import { stemmer } from 'stemmer';
import terms from './construction-terms.json' with { type: 'json' };

/**
 * THE construction-aware analyzer: the one place that turns text into search tokens, used alike
 * when a passage is indexed and when a query is parsed, so both sides always agree.
 *
 * - Identifiers are normalized to one canonical token: `A-101` = `A101` = `A 101` = `A.101` → `a101`
 *   (leading zeros of the number dropped, so `CR-05` = `CR-5`); `07 55 00` = `075500` = `07-55-00` →
 *   `075500` (a level-4 number `33 01 30.73` → `33013073` and its parent `330130`); `5/A-501` →
 *   `5/a501` besides `5` and `a501`; `#4` stays `#4`; `12"` → `12in`, `5'` → `5ft`; `O.C.` → `oc`.
 * - Sheet-like identifiers also emit prefix tokens (`a5*`, `a50*` for `a501`), so a query for `A-5`
 *   finds the A-5xx sheets through the prefix form `a5*`.
 * - Abbreviations and their expansions (construction-terms.json) meet on one concept token: `GWB`,
 *   `gypsum board` and `drywall` all emit `=gwb`.
 * - Queries (only) also map a MasterFormat section title to its number (`grouting` → `036000`).
 * - Words are lower-cased, accents folded, stop words dropped, and stemmed (Porter).
 *
 * The token stream keeps the words in order (phrase queries need positions); the extra tokens
 * (canonical identifiers, prefixes, concepts) follow them.
 */

export const ANALYZER_VERSION = `construction-5.terms-${terms.version}`;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by for from had has have he her his i if in into is it its of on or ' +
    'our she so such than that the their them then there these they this those to was we were what when ' +
    'where which while who whom why will with you your do does did can could should would may might must ' +
    'shall not no nor any all each other some about above after again against below between both during ' +
    'few more most over same through under until up down very just own only out off once here how'
  ).split(' '),
);

/** Words too common to match on (the analyzer drops them; snippets do not highlight them). */
export const isStopWord = (word: string) => STOP_WORDS.has(word.toLowerCase());

const normalizeKey = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Stems of a phrase's words, space-joined: the key phrases are matched on. */
export const phraseKey = (phrase: string) =>
  words(fold(phrase))
    .filter((word) => !STOP_WORDS.has(word))
    .map(stemWord)
    .join(' ');

interface Lexicon {
  /** abbreviation (normalized) → concept token */
  abbreviations: Map<string, string>;
  /** stemmed phrase → concept token (expansions of abbreviations) */
  phrases: Map<string, string>;
  /** stemmed MasterFormat title → section number token (queries only) */
  titles: Map<string, string>;
  /** abbreviation → the words of its first expansion (for embeddings) */
  expansions: Map<string, string[]>;
  /** every leading run of words of a phrase or a title (the phrase search stops where none starts) */
  phraseStarts: Set<string>;
  longestPhrase: number;
}

let lexicon: Lexicon | null = null;

function loadLexicon(): Lexicon {
  if (lexicon) return lexicon;
  const abbreviations = new Map<string, string>();
  const phrases = new Map<string, string>();
  const titles = new Map<string, string>();
  const expansions = new Map<string, string[]>();
  let longestPhrase = 1;
  for (const [abbreviation, ...meanings] of terms.abbreviations) {
    const key = normalizeKey(abbreviation as string);
    if (key.length < 2) continue;
    const concept = `=${key}`;
    abbreviations.set(key, concept);
    if (meanings[0]) expansions.set(key, words(fold(meanings[0])));
    for (const meaning of meanings) {
      const phrase = phraseKey(meaning);
      if (!phrase) continue;
      phrases.set(phrase, concept);
      longestPhrase = Math.max(longestPhrase, phrase.split(' ').length);
    }
  }
  for (const [number, title] of terms.masterformat) {
    const phrase = phraseKey(title as string);
    if (!phrase) continue;
    titles.set(phrase, (number as string).replace(/\D/g, ''));
    longestPhrase = Math.max(longestPhrase, phrase.split(' ').length);
  }
  // Every leading run of words of a phrase or title: a run of the text that is none of these starts no phrase.
  const phraseStarts = new Set<string>();
  for (const phrase of [...phrases.keys(), ...titles.keys()]) {
    const parts = phrase.split(' ');
    for (let length = 1; length <= parts.length; length++) phraseStarts.add(parts.slice(0, length).join(' '));
  }
  lexicon = { abbreviations, phrases, titles, expansions, longestPhrase, phraseStarts };
  return lexicon;
}

/** Accents folded, typographic quotes and primes made plain. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u201c\u201d\u2033\u02ba]/g, '"')
    .replace(/[\u2018\u2019\u2032\u02b9]/g, "'");
}

function words(text: string): string[] {
  return text.toLowerCase().match(/#?[a-z0-9]+(?:\.[0-9]+)*/g) ?? [];
}

/**
 * Irregular forms Porter stemming leaves apart from their base (`paid` and `pays`, `feet` and `foot`):
 * the forms construction text and questions use, each mapped to its base before stemming.
 */
const IRREGULAR = new Map(
  (
    'paid:pay laid:lay built:build bought:buy brought:bring dug:dig spent:spend held:hold made:make ' +
    'sold:sell taken:take took:take given:give gave:give written:write wrote:write chosen:choose ' +
    'kept:keep met:meet ran:run worn:wear torn:tear thrown:throw threw:throw shown:show drawn:draw ' +
    'drew:draw grown:grow grew:grow known:know knew:know seen:see fallen:fall fell:fall ' +
    'hung:hang struck:strike bent:bend sent:send began:begin begun:begin broken:break broke:break ' +
    'frozen:freeze froze:freeze risen:rise rose:rise borne:bear lent:lend ' +
    'owed:owe feet:foot teeth:tooth men:man women:woman children:child mice:mouse ' +
    'led:lead fed:feed fled:flee fought:fight sought:seek taught:teach ' +
    'thought:think understood:understand withdrawn:withdraw withdrew:withdraw'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/**
 * Stems already computed: a book's passages repeat a few thousand words, and Porter's rules (a dozen
 * regular expressions a word) were a third of the time it took to analyze them. Emptied when full.
 */
const knownStems = new Map<string, string>();
const STEMS_KEPT = 100_000;

/** Porter stem of a word; abbreviations of the lexicon (`nts`, `gwb`) are kept as they are. */
function stemWord(word: string): string {
  const known = knownStems.get(word);
  if (known !== undefined) return known;
  const stem =
    !/^[a-z]{3,}$/.test(word) || lexicon?.abbreviations.has(word)
      ? word
      : stemmer(IRREGULAR.get(word) ?? word);
  // While the lexicon is being built (its phrases are stemmed), abbreviations are not known yet.
  if (!lexicon) return stem;
  if (knownStems.size >= STEMS_KEPT) knownStems.clear();
  knownStems.set(word, stem);
  return stem;
}

const stripZeros = (digits: string) => digits.replace(/^0+(?=\d)/, '');

/** `CR-05` → `cr5`, `P1.02A` → `p1.02a`, `SW-G1` → `swg1`. */
export function canonicalIdentifier(letters: string, rest: string): string {
  const restKey = rest.toLowerCase().replace(/[^a-z0-9.]/g, '');
  const match = /^([a-z]?)(\d+)(.*)$/.exec(restKey);
  const normalized = match ? `${match[1]}${stripZeros(match[2] as string)}${match[3]}` : restKey;
  return `${letters.toLowerCase()}${normalized}`;
}

function prefixTokens(identifier: string): string[] {
  const firstDigit = identifier.search(/\d/);
  if (firstDigit < 1) return [];
  const prefixes: string[] = [];
  for (let end = firstDigit + 1; end <= identifier.length; end++)
    if (identifier[end - 1] !== '.') prefixes.push(`${identifier.slice(0, end)}*`);
  return prefixes;
}

const CSI = /\b(\d{2})[ \-.]?(\d{2})[ \-.]?(\d{2})(?:\.(\d{2}))?(?![\d-])/g;
const SHEET_ID =
  /(?<![A-Za-z0-9#])([A-Za-z]{1,3})([-.]|\s(?=[A-Z]?\d))?((?:[A-Za-z]\d{1,3}|\d{1,3})(?:\.\d{1,2})?[A-Za-z]?)(?![A-Za-z0-9])/g;
const DETAIL_REF =
  /(?<![A-Za-z0-9/])(\d{1,3}|[A-Z]\d{0,2})\s*\/\s*([A-Za-z]{1,3})[-. ]?((?:[A-Za-z]\d{1,3}|\d{1,3})(?:\.\d{1,2})?[A-Za-z]?)(?![A-Za-z0-9])/g;
const SHEET_OF = /(?<![\d.,])(\d{1,3})\s+OF\s+(\d{1,3})(?![\d.,])/gi;
const GROUPED_NUMBER = /(?<![\d,.])\d{1,3}(?:,\d{3})+(?![\d,]*\d)/g;
const DOTTED_ABBREVIATION = /\b(?:[A-Za-z]\.){2,}/g;
const DIMENSION = /(\d+(?:\.\d+)?)\s*(["']{1,2})/g;
const AMPERSAND_ABBREVIATION = /\b([A-Z]{1,2})&([A-Z]{1,2})\b/g;

/**
 * OCR's confusions inside a number (0/O, 1/I/l/|, 5/S, 8/B): a sheet or detail number is discipline
 * letters and digits (the US National CAD Standard avoids the letters O and I as designators because
 * they read as digits), so in the digit run of an identifier-shaped token that has a digit already,
 * `O` and `I`/`l`/`|` are read as `0` and `1`, and `S` and `B` as `5` and `8` between two digits
 * (`A-1O1`, `E-3l0`, `C-2S1` → `A-101`, `E-310`, `C-251`); a trailing letter stays a suffix (`A-1B`).
 */
const CONFUSED_NUMBER =
  /(?<![A-Za-z0-9])([A-Za-z]{1,3}[-.]?)((?=[0-9OIl|SB]*\d)[0-9OIl|]*(?:\d[SB](?=\d)[0-9OIl|]*)*)(?![A-Za-z0-9|])/g;
const DIGIT_OF: Record<string, string> = { O: '0', I: '1', l: '1', '|': '1', S: '5', B: '8' };

export function readConfusedNumbers(text: string): string {
  return text.replace(CONFUSED_NUMBER, (match, head: string, run: string) =>
    /[OIl|SB]/.test(run)
      ? `${head}${run.replace(/[OIl|SB]/g, (letter) => DIGIT_OF[letter] as string)}`
      : match,
  );
}

interface Pieces {
  words: string[];
  extras: string[];
  /** Section numbers of the MasterFormat titles a query names (among the extras; not written in it). */
  titled: string[];
}

function pieces(text: string, options: { query: boolean }): Pieces {
  const extras: string[] = [];
  const titled: string[] = [];
  let working = readConfusedNumbers(fold(text))
    .replace(AMPERSAND_ABBREVIATION, '$1$2')
    .replace(DOTTED_ABBREVIATION, (match) => ` ${match.replace(/\./g, '')} `)
    .replace(DIMENSION, (_match, value: string, mark: string) => {
      const unit = mark === "'" ? 'ft' : 'in';
      return ` ${value} ${value}${unit} `;
    });
  // A number with thousands separators (`87,187` a standard plan's file number, `1,200 SF`) is also its digits.
  for (const match of working.matchAll(GROUPED_NUMBER)) extras.push((match[0] as string).replace(/,/g, ''));
  // A title block's place of the sheet in its set (`SHEET 16 OF 23`) is one token.
  for (const match of working.matchAll(SHEET_OF))
    extras.push(`${stripZeros(match[1] as string)}of${stripZeros(match[2] as string)}`);
  working = working.replace(CSI, (match, a: string, b: string, c: string, d: string | undefined) => {
    // A bare six-digit run is a section number only when it is written as one (no separators needed).
    extras.push(`${a}${b}${c}`);
    if (d) extras.push(`${a}${b}${c}${d}`);
    return match.includes(' ') || match.includes('-') || match.includes('.') ? ' ' : ` ${a}${b}${c} `;
  });
  for (const match of working.matchAll(DETAIL_REF)) {
    const sheet = canonicalIdentifier(match[2] as string, match[3] as string);
    extras.push(`${normalizeKey(match[1] as string)}/${sheet}`);
  }
  for (const match of working.matchAll(SHEET_ID)) {
    const [, letters, separator, rest] = match as unknown as [string, string, string | undefined, string];
    if (separator === ' ' && letters !== letters.toUpperCase()) continue;
    if (separator === ' ' && letters.length > 1 && STOP_WORDS.has(letters.toLowerCase())) continue;
    const identifier = canonicalIdentifier(letters, rest);
    extras.push(identifier);
    extras.push(...prefixTokens(identifier));
  }
  const found = words(working).filter((word) => !STOP_WORDS.has(word));
  const { abbreviations, phrases, titles, longestPhrase, phraseStarts } = loadLexicon();
  const stems = found.map(stemWord);
  for (const word of found) {
    const concept = abbreviations.get(normalizeKey(word));
    if (concept) extras.push(concept);
  }
  for (let start = 0; start < stems.length; start++) {
    // The runs from this word that could be phrases, grown word by word while some phrase starts so.
    const runs: string[] = [];
    for (let length = 1; length <= Math.min(longestPhrase, stems.length - start); length++) {
      const run =
        length === 1 ? (stems[start] as string) : `${runs[length - 2]} ${stems[start + length - 1]}`;
      if (!phraseStarts.has(run)) break;
      runs.push(run);
    }
    // Longest first, as the concepts were always listed.
    for (const key of runs.reverse()) {
      const concept = phrases.get(key);
      if (concept) extras.push(concept);
      const number = options.query ? titles.get(key) : undefined;
      if (number) {
        if (!extras.includes(number)) titled.push(number);
        extras.push(number);
      }
    }
  }
  return { words: stems, extras, titled };
}

const unique = (tokens: string[]) => [...new Set(tokens)];

/** The indexed token string of a text: stems in order, then the extra tokens. */
export function analyzeText(text: string): string {
  const { words: stems, extras } = pieces(text, { query: false });
  return [...stems, ...unique(extras)].join(' ');
}

export interface AnalyzedQuery {
  /** Every token of the query (stems and extras), de-duplicated: matched with OR. */
  terms: string[];
  /** Quoted phrases, each as its stems in order: matched as phrases. */
  phrases: string[][];
  /** Canonical identifiers written in the query (sheet numbers, section numbers; not those of titles it names). */
  identifiers: string[];
}

export function analyzeQuery(query: string): AnalyzedQuery {
  const phrases: string[][] = [];
  // Quotes that are inch marks were turned into units first; what stays quoted is a phrase.
  const withUnits = fold(query).replace(DIMENSION, (_m, value: string, mark: string) =>
    mark === "'" ? ` ${value}ft ` : ` ${value}in `,
  );
  const rest = withUnits.replace(/"([^"]+)"/g, (_match, phrase: string) => {
    const stems = pieces(phrase, { query: true }).words;
    if (stems.length > 1) phrases.push(stems);
    return ` ${phrase} `;
  });
  const { words: stems, extras, titled } = pieces(rest, { query: true });
  // The numbers it writes: sheet and section numbers, a sheet's place in its set, and a bare number of
  // five to eight digits (a standard plan's or a 1995 section's number: `87187`, `13210`).
  const identifiers = unique([
    ...extras.filter((token) => /^[a-z]{0,3}\d[\da-z.]*$|^\d+of\d+$/.test(token) && !titled.includes(token)),
    ...stems.filter((token) => /^\d{5,8}$/.test(token)),
  ]);
  return { terms: unique([...stems, ...extras]), phrases, identifiers };
}

/**
 * Words for an embedding model: lower-cased, accents folded, abbreviations followed by the words of
 * their first expansion (`GWB` → `gwb gypsum board`), so word vectors see what an abbreviation means.
 */
export function embeddingWords(text: string): string[] {
  const { expansions } = loadLexicon();
  const out: string[] = [];
  for (const word of fold(text)
    .toLowerCase()
    .match(/[a-z]+|\d+/g) ?? []) {
    out.push(word);
    const expansion = expansions.get(word);
    if (expansion) out.push(...expansion);
  }
  return out;
}

/** A printed sheet number in canonical form (`A-101`, `A101`, `a 101` -> `a101`), as indexes store it. */
export function sheetKey(sheetNumber: string): string {
  return analyzeQuery(sheetNumber).identifiers[0] ?? sheetNumber.toLowerCase();
}
