import { fold, isStopWord } from './analyzer.ts';

/**
 * Files a query names. People name the job or the document they mean ("who pays for the permit on
 * the gym job", "what did addendum 1 change"), and file names carry those words
 * (`camilla-gymnasium_addendum-01.pdf`). A search lists the best passages of the files a query names
 * beside its other rankings, so that the job or document the question is about comes first when
 * several say similar things.
 *
 * A file is named by the query's words that match a word of its name (equal, or a prefix of at least
 * three letters: `gym` → `gymnasium`), counting only name words that tell files apart (in at most half
 * of the project's files) and not the words that say what kind of file it is (`plans`, `project
 * manual`, `submittal`). At least one matched name word has four letters or more (a number, or `ave`,
 * alone names nothing); the files with the most matched words are the named ones (`addendum 1` names
 * addendum 01, not 04).
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

export function namedFiles(query: string, files: { fileId: string; fileName: string }[]): string[] {
  if (files.length < 2) return [];
  const names = files.map((file) => new Set(wordsOf(fileNameWords(file.fileName))));
  const filesWith = new Map<string, number>();
  for (const name of names) for (const word of name) filesWith.set(word, (filesWith.get(word) ?? 0) + 1);
  const queryWords = wordsOf(query).filter(
    (word) => !isStopWord(word) && !KIND_WORDS.has(word) && (word.length >= 3 || /^\d+$/.test(word)),
  );
  if (queryWords.length === 0) return [];
  const matches = (nameWord: string) =>
    queryWords.some(
      (word) => word === nameWord || (word.length >= 3 && /^[a-z]/.test(word) && nameWord.startsWith(word)),
    );
  const scores = names.map((name) => {
    const matched = [...name].filter(
      (word) => !KIND_WORDS.has(word) && (filesWith.get(word) ?? 0) * 2 <= files.length && matches(word),
    );
    // A short word alone (`ave`, `st`, `tcp`) is too common a part of names to name a file.
    return matched.some((word) => /^[a-z]{4,}/.test(word)) ? matched.length : 0;
  });
  const best = Math.max(...scores);
  if (best === 0) return [];
  return files.filter((_, index) => scores[index] === best).map((file) => file.fileId);
}
