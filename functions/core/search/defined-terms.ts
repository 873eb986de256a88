/**
 * Abbreviations a project defines for itself: the abbreviation list of a drawing set (`AFFL  ABOVE
 * FINISHED FLOOR LEVEL`, a row of two columns), and the definitions of a specification (`Cured-In-Place
 * Liner (CIPL)`, `CIPL (cured-in-place liner)`). The shared thesaurus knows the trade's common
 * abbreviations; these are the ones a firm or a country prints in its own list.
 *
 * A pair is kept only when the abbreviation is made of its meaning's letters, in order, starting with
 * its first letter (how abbreviations are formed: `BMT` base metal thickness, `AGG.` aggregate,
 * `HT` high-tensile steel); a note's text beside a short word is not a definition.
 */
import { analyzeQuery, fold, isStopWord, phraseKey } from './analyzer.ts';

export interface DefinedTerm {
  abbreviation: string;
  meaning: string;
}

/** Letters and digits of an abbreviation, lower-cased (`A.F.F.` → `aff`, `M/A` → `ma`). */
export const abbreviationKey = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

const ABBREVIATION_SHAPE = /^\(?[A-Z][A-Za-z0-9.&/-]{0,9}\)?$/;
const MEANING_WORD = /^[A-Za-z][A-Za-z'-]*[.,]?$|^[/&]$|^(?:of|and|or|to|for|in|on|at|the|with)$/i;
const MAX_MEANING_WORDS = 6;

/**
 * Whether `abbreviation` is formed from `meaning`'s letters, in order, from its first letter; a meaning
 * of several words also gives its second word's initial (`HS` high strength, `BPL` base plate), and a
 * meaning with alternatives (`LENGTH / LONG`, `BEHIND or BOTTOM`) is matched by one of them.
 */
export function abbreviates(abbreviation: string, meaning: string): boolean {
  const letters = abbreviationKey(abbreviation);
  if (letters.length < 2 || letters.length > 8 || /\d/.test(letters)) return false;
  // A word of its own meaning is not its abbreviation (`WHITE  WHITE STAGGERED` is a cell and its next).
  if ((meaning.toLowerCase().match(/[a-z]+/g) ?? ([] as string[])).includes(letters)) return false;
  const alternatives = meaning.split(/\s*\/\s*|\s+or\s+/i);
  return (alternatives.length > 1 ? [meaning, ...alternatives] : [meaning]).some((alternative) => {
    const words = alternative.toLowerCase().match(/[a-z]+/g) ?? [];
    const text = words.join('');
    if (text.length <= letters.length || letters[0] !== text[0]) return false;
    let at = 0;
    for (const letter of letters) {
      at = text.indexOf(letter, at) + 1;
      if (at === 0) return false;
    }
    // Letters all from the first word (`AG` agricultural drain pipe), or the next word's initial among them.
    const first = words[0] as string;
    const second = words.slice(1).find((word) => !CONNECTORS.has(word));
    return second === undefined || at <= first.length || letters.slice(1).includes(second[0] as string);
  });
}

const CONNECTORS = new Set(['of', 'and', 'or', 'to', 'for', 'in', 'on', 'at', 'the', 'with', 'a']);

const isMeaning = (words: string[]): boolean =>
  words.length > 0 &&
  words.length <= MAX_MEANING_WORDS &&
  words.every((word) => MEANING_WORD.test(word)) &&
  /[A-Za-z]{3}/.test(words.join(''));

/** The definitions one passage prints: list rows and parenthesized forms. */
export function definedTerms(text: string): DefinedTerm[] {
  const found = new Map<string, DefinedTerm>();
  const keep = (abbreviation: string, meaning: string) => {
    const clean = meaning.replace(/[.,;:]+$/, '').trim();
    if (!abbreviates(abbreviation, clean)) return;
    const key = `${abbreviationKey(abbreviation)}=${phraseKey(clean)}`;
    if (!found.has(key))
      found.set(key, { abbreviation: abbreviation.replace(/^\(|\)$/g, ''), meaning: clean });
  };
  for (const line of fold(text).split('\n')) {
    // A list row: cells apart by a wide gap (two spaces or more, a tab, a bar), an abbreviation cell
    // followed by its meaning's cell; or one cell that starts with the abbreviation (`APPROX. APPROXIMATE`).
    const cells = line
      .split(/\s{2,}|\t|\s\|\s/)
      .map((cell) => cell.trim())
      .filter(Boolean);
    for (const [index, cell] of cells.entries()) {
      const tokens = cell.split(/\s+/);
      if (tokens.length === 1 && ABBREVIATION_SHAPE.test(cell)) {
        const next = cells[index + 1]?.replace(/^[-=:–—]\s*/, '');
        if (next && isMeaning(next.split(/\s+/))) keep(cell, next);
      } else if (ABBREVIATION_SHAPE.test(tokens[0] as string)) {
        const rest = tokens.slice(1);
        if (/^[-=:–—]$/.test(rest[0] ?? '')) rest.shift();
        if (isMeaning(rest)) keep(tokens[0] as string, rest.join(' '));
      }
    }
    // The parenthesized forms need a parenthesis (their patterns are slow to fail on a long line).
    if (!line.includes('(')) continue;
    // `Meaning Words (ABBR)`: the fewest words before the parenthesis that the abbreviation is made of.
    for (const match of line.matchAll(
      /((?:[A-Za-z][A-Za-z'-]*\s+){0,5}[A-Za-z][A-Za-z'-]*)\s*\(([A-Z][A-Z0-9.&/-]{1,9})\)/g,
    )) {
      const words = (match[1] as string).split(/\s+/);
      for (let count = 1; count <= words.length; count++) {
        const meaning = words.slice(-count).join(' ').replace(/-/g, ' ');
        if (abbreviates(match[2] as string, meaning) && (count > 1 || !(match[2] as string).includes('.'))) {
          keep(match[2] as string, meaning);
          break;
        }
      }
    }
    // `ABBR (meaning words)`.
    for (const match of line.matchAll(/\b([A-Z][A-Z0-9.&/-]{1,9})\s+\(([A-Za-z][A-Za-z' -]{2,60})\)/g))
      if (isMeaning((match[2] as string).split(/\s+/))) keep(match[1] as string, match[2] as string);
  }
  return [...found.values()];
}

/**
 * The definitions that can bear on a query, read from passages' lines that hold one of its words (a
 * definition of an abbreviation the query writes holds it; one of a meaning it writes holds its first
 * word): reading every line of forty passages took about 10 ms a search, the lines that hold a query
 * word a fraction of it.
 */
export function definedTermsFor(query: string, texts: string[]): DefinedTerm[] {
  // The query's words, and its abbreviations without their dots and slashes (`M/A` → `ma`).
  const tokens = fold(query).match(/[A-Za-z0-9][A-Za-z0-9./&-]*/g) ?? [];
  const words = [
    ...new Set(
      [...tokens.flatMap((token) => token.split(/[./&-]+/)), ...tokens.map(abbreviationKey)]
        .filter((word) => word.length > 1 && (!isStopWord(word) || word === word.toUpperCase()))
        .map((word) => word.toLowerCase()),
    ),
  ];
  if (words.length === 0) return [];
  const holds = new RegExp(`(?<![a-z0-9])(?:${words.join('|')})(?![a-z0-9])`, 'i');
  return texts.flatMap((text) => {
    const lines = text
      .split('\n')
      .filter((line) => holds.test(line.replace(/[./&-]/g, '')) || holds.test(line));
    return lines.length > 0 ? definedTerms(lines.join('\n')) : [];
  });
}

/** A form the query writes and the other form the project's definition gives it. */
export interface DefinedForm {
  written: string;
  other: string;
}

export interface DefinedExpansions {
  /** The other forms, searched as the query's own words. */
  words: string[];
  /** Meanings of several words, searched as optional phrases too. */
  phrases: string[];
  forms: DefinedForm[];
}

/**
 * What the project's definitions add to a query: for an abbreviation the query writes, its meaning's
 * words; for a meaning the query writes (its stems in a row), the abbreviation. Terms the query has
 * already are left out.
 */
export function definedExpansions(query: string, terms: DefinedTerm[]): DefinedExpansions {
  const analyzed = analyzeQuery(query);
  // A stop word names an abbreviation only in capitals (`AS` Australian Standard, not `as`).
  const queryWords = new Map(
    (query.match(/[A-Za-z0-9./&-]+/g) ?? [])
      .filter((word) => !isStopWord(word) || word === word.toUpperCase())
      .map((word) => [abbreviationKey(word), word]),
  );
  const queryStems = ` ${analyzed.terms.join(' ')} `;
  const forms = new Map<string, DefinedForm>();
  for (const term of terms) {
    const meaningKey = phraseKey(term.meaning);
    if (!meaningKey) continue;
    const written = queryWords.get(abbreviationKey(term.abbreviation));
    if (written) forms.set(`${written}=${meaningKey}`, { written, other: term.meaning });
    else if (queryStems.includes(` ${meaningKey} `))
      forms.set(`${meaningKey}=${abbreviationKey(term.abbreviation)}`, {
        written: term.meaning,
        other: term.abbreviation,
      });
  }
  const found = [...forms.values()];
  return {
    words: [...new Set(found.map((form) => form.other))],
    phrases: [...new Set(found.filter((form) => /\s/.test(form.other)).map((form) => form.other))],
    forms: found,
  };
}
