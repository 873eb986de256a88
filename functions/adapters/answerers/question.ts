import { analyzeQuery, analyzeText } from '../../core/search/analyzer.ts';
import { namedFiles } from '../../core/search/named-files.ts';

/** What a question asks, as the extractive answerer reads it: its parts, its shape, the files it names. */

/**
 * Words that phrase a question rather than name what it is about (`how long`, `required`, `apply`,
 * `say`): a quarter of a word's weight.
 */
const SCAFFOLD = new Set(
  analyzeQuery(
    'how long much many required requires apply applies say says cover covers mean use used late reach keep kept disagree disagrees conflict conflicts govern governs correct differ differs still',
  ).terms,
);
/** Identifiers (sheet and section numbers, sizes) weigh more than words. */
export const weightOf = (term: string) => (/\d/.test(term) ? 2 : SCAFFOLD.has(term) ? 0.25 : 1);

/**
 * What the question asks for: a quantity (`how long`, `how much`, …: the answer holds a number),
 * and the thing a `what`/`which` question names before its verb (`What R-value is required`: the
 * answer names an R-value).
 */
export function questionShape(question: string): { number: boolean; focus: string[] } {
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
  const naming = new Set(namingFiles.flatMap(fileNameTokens));
  const pieces = question
    .split(
      /\?\s+|[,;]?\s+and\s+(?=(?:what|which|how|when|where|who|whom|why|is|are|does|do|did|can)\b)|,\s+(?=(?:what|which|how|when|where|who|whom|why)\b)/i,
    )
    .map((part) => withoutNaming(part.trim(), naming))
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

/** The words of a file's name, as the analyzer reads them (`sfpw-2977J-paul-ave_drawings.pdf`). */
function fileNameTokens(fileName: string): string[] {
  return analyzeText(fileName.replace(/\.pdf$/i, '').replace(/[-_.]/g, ' ')).split(' ');
}

/**
 * A piece of a question without the phrases that name the files its search is limited to: a phrase
 * that names a document or contract and holds a word of those files' names (`naming`).
 */
function withoutNaming(piece: string, naming: Set<string>): string {
  if (naming.size === 0) return piece;
  return piece
    .replace(NAMING_PHRASE, (phrase) =>
      analyzeQuery(phrase).terms.some((term) => naming.has(term)) ? ' ' : phrase,
    )
    .replace(/\s+([,?])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The files a question names (`the Ochlocknee … contract`, `the Paul Ave drawings`) among the files its
 * searches found, by name (the rules are search's: core/search/named-files.ts).
 */
export function namedFileNames(question: string, fileNames: string[]): string[] {
  return namedFiles(
    question,
    [...new Set(fileNames)].map((fileName) => ({ fileId: fileName, fileName })),
  );
}
