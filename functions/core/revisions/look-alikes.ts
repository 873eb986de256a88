/**
 * Characters OCR reads for one another in sheet numbers and drawing text: a digit and the letter drawn like
 * it (0/O, 1/I/l, 5/S, 8/B). Folding both to the digit makes two readings of one printed string equal.
 * Lower-case `l` is folded before upper-casing: the capital L is a discipline designator (Landscape), not a 1.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = { O: '0', I: '1', S: '5', B: '8' };

/** Upper-cased, with every look-alike letter read as its digit. */
export const foldLookAlikes = (text: string): string =>
  text
    .replace(/l/g, '1')
    .toUpperCase()
    .replace(/[OISB]/g, (letter) => LOOK_ALIKES[letter] ?? letter);

/**
 * The words of printed text, folded: runs of letters and digits, with the marks that join a dimension or an
 * identifier kept inside them (`12'-6"`, `A-101`, `3/4`), so a dimension stays one word.
 */
export const foldedWords = (text: string): string[] =>
  foldLookAlikes(text).match(/[A-Z0-9]+(?:['"./-]+[A-Z0-9]+)*['"]?/g) ?? [];
