import { fold, isStopWord } from './analyzer.ts';

/**
 * Files a text names: a search's query among the project's files, and a review's question among the
 * files its searches found. People name the job or the document they mean ("who pays for the permit on
 * the gym job", "what did addendum 1 change", "on the Elm St drawings"), and file names carry those
 * words (`camilla-gymnasium_addendum-01.pdf`). A search lists the best passages of the files a query
 * names beside its other rankings; the extractive answerer searches and reads the named files alone.
 *
 * A file is named by the text's words that match a word of its name (equal, or a prefix of at least
 * three letters: `gym` → `gymnasium`; a two-letter word only when equal: `st`), counting only name
 * words that tell files apart (in at most half of the files, rounded up) and not the words that say
 * what kind of file it is (`plans`, `project manual`, `submittal`). A matched name word of four
 * letters or more, or two matched words, name a file (a number, or `ave`, alone names nothing); the
 * files with the most matched words are the named ones (`addendum 1` names addendum 01, not 04).
 * Among those, the kind words of the text narrow (`the Elm St drawings` names the drawings, not the
 * project manual) but never name a file alone.
 */

/** Words of file names that say what kind of file it is, not which one. */
const KIND_WORDS = new Set(
  (
    'plan plans drawing drawings dwg dwgs spec specs specification specifications project manual ' +
    'submittal submittals sheet sheets set log document documents doc docs pdf final rev revised ' +
    'revision issued for construction bid conformed volume vol part book report copy scan scanned'
  ).split(' '),
);

/** Lower-cased words and numbers (leading zeros dropped) of a text. */
const wordsOf = (text: string) =>
  (
    fold(text)
      .toLowerCase()
      .match(/[a-z]+|\d+/g) ?? []
  ).map((word) => (/^\d+$/.test(word) ? word.replace(/^0+(?=\d)/, '') : word));

/** The words of a file name: `sfpw-2977J_paul-ave.pdf` → `sfpw 2977J paul ave`. */
export function fileNameWords(fileName: string): string {
  return fileName
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[-_.]+/g, ' ')
    .trim();
}

/** The ids of the files `text` names (none when no word tells the files apart). */
export function namedFiles(text: string, files: { fileId: string; fileName: string }[]): string[] {
  if (files.length < 2) return [];
  const named = files.map((file) => ({ file, name: new Set(wordsOf(fileNameWords(file.fileName))) }));
  const filesWith = new Map<string, number>();
  for (const { name } of named) for (const word of name) filesWith.set(word, (filesWith.get(word) ?? 0) + 1);
  const telling = (word: string) => (filesWith.get(word) ?? 0) <= Math.ceil(files.length / 2);
  const textWords = wordsOf(text).filter(
    (word) => !isStopWord(word) && (word.length >= 2 || /^\d+$/.test(word)),
  );
  const naming = textWords.filter((word) => !KIND_WORDS.has(word));
  const kinds = textWords.filter((word) => KIND_WORDS.has(word));
  const matches = (words: string[], nameWord: string) =>
    words.some(
      (word) => word === nameWord || (word.length >= 3 && /^[a-z]/.test(word) && nameWord.startsWith(word)),
    );
  const scores = named.map(({ name }) => {
    const matched = [...name].filter(
      (word) => !KIND_WORDS.has(word) && telling(word) && matches(naming, word),
    );
    // A short word alone (`ave`, `st`, `tcp`) is too common a part of names to name a file.
    return matched.length >= 2 || matched.some((word) => /^[a-z]{4,}/.test(word)) ? matched.length : 0;
  });
  const bestScore = Math.max(...scores);
  if (bestScore === 0) return [];
  const best = named.filter((_, index) => scores[index] === bestScore);
  // The kind words the text says narrow the named files to those of that kind, when some are.
  const kindScore = (name: Set<string>) =>
    [...name].filter((word) => KIND_WORDS.has(word) && kinds.includes(word)).length;
  const bestKind = Math.max(...best.map(({ name }) => kindScore(name)));
  return best.filter(({ name }) => kindScore(name) === bestKind).map(({ file }) => file.fileId);
}
