/**
 * Sheet titles: the lines of the title block that could be (part of) the title, and their ranking. The title is
 * the largest non-label text next to the sheet number (under a DRAWING TITLE / SHEET TITLE label when there
 * is one); field labels, dates, scales, addresses and organisation names are not titles.
 */
import { type Box, boxOf, centerX, centerY, type Line } from '../geometry.ts';
import { NUMBER_LABEL_RE, type NumberCandidate } from './number-candidates.ts';
import { editDistance } from './title-boilerplate.ts';

export interface TitleCandidate {
  text: string;
  lines: string[];
  box: Box;
  size: number;
  score: number;
}

const TITLE_LABEL_RE = /^(?:SHEET|DRAWING|DWG\.?)?\s*TITLE:?$|^(?:SHEET|DRAWING)\s+(?:TITLE|NAME):?$/i;
/** Title-block field labels and boilerplate that are never the sheet title. */
const NOT_TITLE_RE =
  /^(?:PROJECT|PROJECT\s+(?:NO|NUMBER|TITLE|NAME)|JOB|DATE|SCALE|DRAWN|CHECKED|DESIGNED|APPROVED|REVIEWED|SHEET|OF|REV|REVISION|REVISIONS|ISSUE|ISSUED|PHASE|LOCATION|CLIENT|OWNER|BUILDING\s+NUMBER|DRAWING\s+NUMBER|CONSULTANT|ARCHITECT|ENGINEER|STAMP|SEAL|NORTH|KEY\s*PLAN|NO\.?|DESCRIPTION|BY|CHK|APP|DWN|MARK|COPYRIGHT)\b[\s:#.]*$/i;
const FIELD_LABEL_WORDS = new Set(
  'DATE ISSUE ISSUED DRAWN CHECKED DESIGNED APPROVED REVIEWED BY PROJECT NUMBER NO NO. SCALE SHEET SHEETS TITLE REV REV. REVISION JOB FILE NAME PLOT CAD DWG DRAWING PHASE OF CHK DWN APP SUBMITTAL SET KEY CONTRACT ID ID. ID, NO, UNITS MEASUREMENT'.split(
    ' ',
  ),
);
/** Field-label words this long are recognised also with one letter misread by OCR (`DRATING`, `TILE`). */
const FUZZY_LABEL_WORD_LENGTH = 4;
const LONG_FIELD_LABEL_WORDS = [...FIELD_LABEL_WORDS].filter(
  (word) => word.length >= FUZZY_LABEL_WORD_LENGTH,
);
const isFieldLabelWord = (word: string): boolean =>
  FIELD_LABEL_WORDS.has(word) ||
  (word.length >= FUZZY_LABEL_WORD_LENGTH &&
    !DRAWING_WORD_RE.test(word) &&
    LONG_FIELD_LABEL_WORDS.some((label) => editDistance(word, label, 1) <= 1));
const isFieldLabelLine = (text: string): boolean =>
  text.toUpperCase().replace(/[:#]/g, ' ').split(/\s+/).filter(Boolean).every(isFieldLabelWord);

const DATE_RE =
  /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?\s+\d{1,2},?\s+\d{4}\b/i;
export const SCALE_TEXT_RE =
  /(?:\d+\s+)?\d+(?:\/\d+)?\s*["”″]\s*=\s*\d+\s*['’′]\s*-?\s*\d*(?:\s*\d+\/\d+)?\s*["”″]?|\b1\s*:\s*\d{1,5}\b|\bN\.?T\.?S\b\.?|NOT\s+TO\s+SCALE|\b1"\s*=\s*\d+'/i;

const letters = (text: string): number => text.replace(/[^A-Za-z]/g, '').length;

export interface TitleLine {
  text: string;
  box: Box;
  size: number;
  /** Bonus for sitting under or right of a DRAWING TITLE / SHEET TITLE label. */
  labelBonus: number;
  /** Mean OCR confidence of the line's words; absent for text-layer lines. */
  ocrConfidence?: number;
}

/** A numbered field (`PROJECT NO. 1070I`, `CONTRACT NO. WW-684`) is never the title. */
const NUMBERED_FIELD_RE = /\b(?:PROJECT|CONTRACT|JOB|FILE|DRAWING|DWG|SHEET|REVISION|REV)\.?\s+NO\b/i;
/** A field label with its `NO.` misread by OCR (`DRAWING Mo`, `SHEET N0`): the label word and one short token. */
const MISREAD_FIELD_LABEL_RE =
  /^(?:PROJECT|CONTRACT|JOB|FILE|DRAWING|DWG|SHEET)\s+[A-Z0-9]{1,2}[.:]?$|^(?:\S+\s+){1,2}N[O0]\.?:?$/i;
/** Lines with fewer letters than this and no drawing word are fragments (`TAR`, `ETC`), not titles. */
const MIN_TITLE_LETTERS = 4;
/** Plotter stamps and file locations (`V:\\2977J`, `Path:`, `Time:`) are never the title. */
const FILE_FIELD_RE = /\b[A-Z]:\\|\b(?:PATH|TIME|PLOT(?:TED)?)\s*:/i;
/** OCR lines below this mean confidence are mostly misread strokes (hatching, seals, signatures). */
const RELIABLE_OCR_CONFIDENCE = 60;
/** Below this mean confidence an OCR line is never a title (titles read at 85 and more on every corpus set). */
const MIN_TITLE_OCR_CONFIDENCE = 50;
const UNRELIABLE_OCR_PENALTY = 2;

const ORGANIZATION_RE =
  /\b(?:COMMISSION|DEPARTMENT|DIVISION|BUREAU|AGENCY|AUTHORITY|(?:CITY|COUNTY|STATE|TOWN|VILLAGE)\s+OF|PUBLIC\s+WORKS|ARCHITECTURE|ARCHITECTS?|ENGINEERS|ENGINEERING|CONSULTANTS?|ASSOCIATES|INC\.?|LLC|CORP\.?|L\.?L\.?P\.?|P\.?C\.?)(?=\W|$)/i;
/**
 * A postal or contact line: a house number before a street name (`2042 Barber Dr.`, not the ordinal of
 * `46TH AVENUE` nor the limits `CRANE STREET TO 3RD STREET`, which are titles of street-work sheets), a
 * suite, a state and ZIP code, a telephone number, a web or mail address.
 */
const ADDRESS_RE =
  /^\d+[A-Z]?\s+[A-Z0-9 .'-]*\b(?:STREET|ST|AVENUE|AVE|ROAD|RD|BOULEVARD|BLVD|DRIVE|DR|LANE|LN|WAY|COURT|CT|PLACE|PL|HIGHWAY|HWY|PARKWAY|PKWY)\b|\bSUITE\s+\d|\b(?:TEL|FAX|PHONE)\b|\b[A-Z]{2},?\s+\d{5}(?:-\d{4})?\b|WWW\.|@|\(?\d{3}\)?[\s.-]\d{3}[.-]\d{4}/i;
const isAddressLine = (text: string): boolean => ADDRESS_RE.test(text);
/**
 * A person's name in mixed case (`Fernando Cisneros`, `Jane Q. Doe`): the professional in a seal or a
 * signature line, never a sheet title (which names a drawing, and is not a bare pair of capitalised names).
 */
const PERSON_NAME_RE = /^[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+(?:,?\s+(?:P\.?E|R\.?A|AIA|PLS|SE)\.?)?$/;
export const DRAWING_WORD_RE =
  /\b(?:PLANS?|DETAILS?|ELEVATIONS?|SECTIONS?|SCHEDULES?|NOTES|LEGEND|INDEX|PROFILES?|DIAGRAMS?|LAYOUT|SITE|COVER|FRAMING|FOUNDATIONS?|ROOF|FLOORS?|CEILINGS?|GRADING|DEMOLITION|UTILITY|UTILITIES|LIGHTING|POWER|PLUMBING|MECHANICAL|ELECTRICAL|STRUCTURAL|LANDSCAPE|DRAINAGE|PAVING|STRIPING|SIGNAGE|PERSPECTIVES?|VIEWS?|RAMPS?)\b/i;

/** Cell borders and underlines that OCR reads at a line's ends (`|CONTRACT ID.`, `[PAVEMENT`, `FILE_NO.`). */
const OCR_EDGE_JUNK_RE = /^[\s|[\]{}\\/~_]+|[\s|[\]{}\\/~_;]+$/g;

/**
 * The text of a title-block line as a possible title (its OCR edge junk left off), or null when it is not one:
 * field labels, dates, scales, addresses, names, organisations, numbered fields, plotter paths, and OCR lines
 * read with so little confidence that they are strokes (seals, logos, signatures) rather than lettering.
 */
export const titleTextOf = (text: string, ocrConfidence?: number): string | null => {
  if (ocrConfidence !== undefined && ocrConfidence < MIN_TITLE_OCR_CONFIDENCE) return null;
  const cleaned = text.replace(/_/g, ' ').replace(OCR_EDGE_JUNK_RE, '').replace(/\s+/g, ' ');
  if (letters(cleaned) < 3) return null;
  if (
    NOT_TITLE_RE.test(cleaned) ||
    TITLE_LABEL_RE.test(cleaned) ||
    NUMBER_LABEL_RE.test(cleaned) ||
    isFieldLabelLine(cleaned)
  )
    return null;
  if (DATE_RE.test(cleaned) && letters(cleaned) < 12) return null;
  if (SCALE_TEXT_RE.test(cleaned) && letters(cleaned) < 12) return null;
  if (isAddressLine(cleaned) && !DRAWING_WORD_RE.test(cleaned)) return null;
  if (PERSON_NAME_RE.test(cleaned) && !DRAWING_WORD_RE.test(cleaned)) return null;
  if (ORGANIZATION_RE.test(cleaned) && !DRAWING_WORD_RE.test(cleaned)) return null;
  if (/^\d/.test(cleaned) && letters(cleaned) < 6) return null;
  if (NUMBERED_FIELD_RE.test(cleaned) || MISREAD_FIELD_LABEL_RE.test(cleaned) || FILE_FIELD_RE.test(cleaned))
    return null;
  if (isFragmentary(cleaned)) return null;
  if (SENTENCE_END_RE.test(cleaned)) return null;
  return cleaned;
};

/**
 * A full stop after a lower-case word of five letters or more (`... a Registered Professional Engineer. San
 * Francisco`): a sentence of a note or disclaimer printed near the title block. Titles are headings, and the
 * short words abbreviated in mixed-case titles (`Bldg.`, `Typ.`, `Elec.`) are under five letters.
 */
const SENTENCE_END_RE = /[A-Za-z][a-z]{4,}\.(?:\s|$)/;

/**
 * Text whose words are broken into single letters (`HYD P OJECT N . 10701`, a scanner's text layer with letters
 * dropped): two stray letters or more, a third of the words or more (a title's single letters are `A`, `&`,
 * or quoted or hyphenated: `MATCHLINE "B"`, `SECTION A-A`); or text that is mostly marks and digits.
 */
const isFragmentary = (text: string): boolean => {
  const words = text.split(/\s+/).filter(Boolean);
  const stray = words.filter((word) => /^[B-Z]$/i.test(word)).length;
  if (stray >= 2 && stray * 3 >= words.length) return true;
  // Mostly marks and digits (`“PRA "121.464 re`: a stamp or a markup read as text), not a title's words.
  return letters(text) < 0.5 * text.replace(/\s/g, '').length;
};

/** The mean OCR confidence of a line's OCR words; undefined for a text-layer line. */
const ocrConfidenceOf = (line: Line): number | undefined => {
  const ocrWords = line.words.filter((word) => word.source === 'ocr');
  return ocrWords.length
    ? ocrWords.reduce((sum, word) => sum + (word.confidence ?? 0), 0) / ocrWords.length
    : undefined;
};

/**
 * Title lines of a sheet whose number was not read (a scan, a sheet identified only by `SHEET 1 OF 1` or a
 * file number): with no number to read next to, only title-block lines, in any reading direction (title
 * strips print vertically), that name a kind of drawing (`SITE PLAN`, `DRIVEWAY DETAILS`) — without that
 * evidence a project name or a field value would pass for the title.
 */
export const findTitleLinesWithoutNumber = (
  lines: readonly Line[],
  titleBlock: Box | null,
  pageWidth: number,
  pageHeight: number,
): TitleLine[] => {
  const area = titleBlock ?? { x0: pageWidth * 0.6, y0: pageHeight * 0.6, x1: pageWidth, y1: pageHeight };
  return lines.flatMap((line) => {
    const inside =
      centerX(line) >= area.x0 - 2 &&
      centerX(line) <= area.x1 + 2 &&
      centerY(line) >= area.y0 - 2 &&
      centerY(line) <= area.y1 + 2;
    if (!inside) return [];
    const ocrConfidence = ocrConfidenceOf(line);
    const text = titleTextOf(line.text, ocrConfidence);
    if (text === null || !DRAWING_WORD_RE.test(text)) return [];
    const titleLine: TitleLine = {
      text,
      box: { x0: line.x0, y0: line.y0, x1: line.x1, y1: line.y1 },
      size: line.size,
      labelBonus: 0,
      ...(ocrConfidence === undefined ? {} : { ocrConfidence }),
    };
    return [titleLine];
  });
};

/**
 * Lines of the title block that could be (part of) the sheet title, with the label evidence for each. When no
 * line in the number's reading direction names a kind of drawing but a line in another direction does (a
 * title printed up a title strip, the number across its foot), those lines are the title lines.
 */
export const findTitleLines = (
  lines: readonly Line[],
  number: NumberCandidate | null,
  titleBlock: Box | null,
  pageWidth: number,
  pageHeight: number,
): TitleLine[] => {
  const inNumberDirection = titleLinesBeside(lines, number, titleBlock, pageWidth, pageHeight);
  if (!number || inNumberDirection.some((line) => DRAWING_WORD_RE.test(line.text))) return inNumberDirection;
  const dir =
    lines.find((line) => line.words.some((word) => word.x0 === number.box.x0 && word.y0 === number.box.y0))
      ?.dir ?? 0;
  const across = findTitleLinesWithoutNumber(
    lines.filter((line) => line.dir !== dir),
    titleBlock,
    pageWidth,
    pageHeight,
  );
  return across.length ? across : inNumberDirection;
};

/** The letters or numbers that end a title on a line of their own (`A & B`, `C, D & E`, `1 AND 2`). */
const CONTINUATION_RE = /^(?:[A-Z0-9]{1,2}[,&]?\s+)*(?:&|AND)\s+[A-Z0-9]{1,2}$/i;

/**
 * The last line of a title in the title field that is too short to pass for a title by itself (`STAIRS LAYOUT`
 * over `A & B`): a list of letters or numbers, in the field (`labelled`), set just under a line of the same
 * size and left edge.
 */
const continuationOf = (
  line: Line,
  lines: readonly Line[],
  labelled: (line: Line) => boolean,
): string | null => {
  const text = line.text.trim();
  if (!CONTINUATION_RE.test(text) || !labelled(line)) return null;
  const under = lines.some(
    (above) =>
      above !== line &&
      Math.abs(above.size - line.size) <= 0.2 * Math.max(above.size, line.size) &&
      Math.abs(above.x0 - line.x0) < line.size &&
      line.y0 - above.y1 > -0.3 * line.size &&
      line.y0 - above.y1 < 0.9 * line.size &&
      titleTextOf(above.text) !== null,
  );
  return under ? text : null;
};

/** A title label this many number heights from the number is the label of the sheet's title field. */
const TITLE_LABEL_REACH = 12;

const boxDistance = (one: Box, other: Box): number =>
  Math.hypot(
    Math.max(0, one.x0 - other.x1, other.x0 - one.x1),
    Math.max(0, one.y0 - other.y1, other.y0 - one.y1),
  );

/** Title-block lines in the number's reading direction that could be (part of) the title. */
const titleLinesBeside = (
  lines: readonly Line[],
  number: NumberCandidate | null,
  titleBlock: Box | null,
  pageWidth: number,
  pageHeight: number,
): TitleLine[] => {
  if (!number) return [];
  const nb = number.box;
  const area = titleBlock ?? { x0: pageWidth * 0.6, y0: pageHeight * 0.6, x1: pageWidth, y1: pageHeight };
  const dir =
    lines.find((line) => line.words.some((word) => word.x0 === nb.x0 && word.y0 === nb.y0))?.dir ?? 0;
  const sameDirection = lines.filter((line) => line.dir === dir);
  const inBlock = (line: Line): boolean =>
    centerX(line) >= area.x0 - 2 &&
    centerX(line) <= area.x1 + 2 &&
    centerY(line) >= area.y0 - 2 &&
    centerY(line) <= area.y1 + 2;
  // The title field's own label (`DRAWING TITLE`, `SHEET NAME`) names the cell the title sits in. A label in
  // the number's neighbourhood counts even when the block found from rulings is only the number's row of a
  // taller strip: its cell is part of the title block.
  const reach = TITLE_LABEL_REACH * Math.max(number.size, 8);
  const titleLabels = sameDirection.filter(
    (line) => TITLE_LABEL_RE.test(line.text.trim()) && (inBlock(line) || boxDistance(line, nb) <= reach),
  );
  const labelled = (line: Line): boolean =>
    titleLabels.some((label) => {
      const below =
        line.y0 >= label.y0 - 2 &&
        line.y0 - label.y1 < 4 * label.size &&
        line.x0 < label.x1 + 200 &&
        line.x1 > label.x0 - 20;
      const right =
        Math.abs(centerY(label) - centerY(line)) < label.size &&
        line.x0 > label.x0 &&
        line.x0 - label.x1 < 12 * label.size;
      return below || right;
    });
  const out: TitleLine[] = [];
  for (const line of sameDirection) {
    if (!inBlock(line) && !labelled(line)) continue;
    if (line.words.some((word) => word.x0 === nb.x0 && word.y0 === nb.y0)) continue;
    const ocrConfidence = ocrConfidenceOf(line);
    const title = titleTextOf(line.text, ocrConfidence) ?? continuationOf(line, sameDirection, labelled);
    if (title === null) continue;
    const labelBonus = labelled(line) ? 3 : 0;
    out.push({
      text: title,
      box: { x0: line.x0, y0: line.y0, x1: line.x1, y1: line.y1 },
      size: line.size,
      labelBonus,
      ...(ocrConfidence === undefined ? {} : { ocrConfidence }),
    });
  }
  return out;
};

/**
 * One reading per place: OCR passes over the same lettering (the block, its cells) give overlapping lines,
 * sometimes read differently (`SITE PLAN` and `are ran`); the more confident reading is kept.
 */
const REREADING_CONFIDENCE_MARGIN = 15;
const withoutRereadings = (lines: readonly TitleLine[]): TitleLine[] => {
  const confidence = (line: TitleLine): number => line.ocrConfidence ?? 100;
  const area = (box: Box): number => Math.max(1e-6, (box.x1 - box.x0) * (box.y1 - box.y0));
  const overlaps = (one: TitleLine, other: TitleLine): boolean => {
    const overlapWidth = Math.min(one.box.x1, other.box.x1) - Math.max(one.box.x0, other.box.x0);
    const overlapHeight = Math.min(one.box.y1, other.box.y1) - Math.max(one.box.y0, other.box.y0);
    return (
      overlapWidth > 0 &&
      overlapHeight > 0 &&
      overlapWidth * overlapHeight > 0.5 * Math.min(area(one.box), area(other.box))
    );
  };
  // Of two readings about as confident, the longer one (a fragment such as `RSET` is part of a line).
  const better = (one: TitleLine, other: TitleLine): boolean =>
    Math.abs(confidence(one) - confidence(other)) > REREADING_CONFIDENCE_MARGIN
      ? confidence(one) > confidence(other)
      : letters(one.text) > letters(other.text);
  return lines.filter(
    (line, index) =>
      !lines.some(
        (other, otherIndex) =>
          otherIndex !== index &&
          overlaps(line, other) &&
          (better(other, line) || (!better(line, other) && otherIndex < index)),
      ),
  );
};

/** Pieces of one row closer than this many text heights are one line split at a wide gap or dash. */
const ROW_PIECE_GAP = 3.5;

/**
 * Pieces of one title row (`WOOLSEY ST.` and `UNIVERSITY ST. TO HAMILTON ST.`, split by OCR at a long dash)
 * joined left to right: same size within 15 %, the same middle height, a gap under ROW_PIECE_GAP heights.
 */
const joinRowPieces = (lines: readonly TitleLine[]): TitleLine[] => {
  const joined: TitleLine[] = [];
  for (const line of [...lines].sort((a, b) => a.box.x0 - b.box.x0)) {
    const left = joined.find((other) => {
      const sameSize = Math.abs(other.size - line.size) <= 0.15 * Math.max(other.size, line.size);
      const sameRow =
        Math.abs(centerY(other.box) - centerY(line.box)) < 0.3 * Math.min(other.size, line.size);
      const gap = line.box.x0 - other.box.x1;
      return sameSize && sameRow && gap > -0.5 * line.size && gap < ROW_PIECE_GAP * line.size;
    });
    if (!left) {
      joined.push({ ...line });
      continue;
    }
    const confidences = [left.ocrConfidence, line.ocrConfidence].filter((value) => value !== undefined);
    left.text = `${left.text} ${line.text}`;
    left.box = boxOf([left.box, line.box]);
    left.labelBonus = Math.max(left.labelBonus, line.labelBonus);
    if (confidences.length)
      left.ocrConfidence = confidences.reduce((sum, value) => sum + value, 0) / confidences.length;
  }
  return joined;
};

/**
 * Ranks title candidates: vertically adjacent lines of the same size and alignment are joined (multi-line
 * titles), then scored by size, nearness to the number and label evidence. `withoutBoilerplate` removes what
 * the rest of the set shows is not a title (null drops the line) before joining. `number` is where the title
 * is read next to (for a sheet without a number, the lines' own box: nearness then counts for none).
 */
/** What a title made only of lines the whole set prints loses (about a size step and a third of the reach). */
const SET_WIDE_LINE_PENALTY = 2;

export const rankTitleCandidates = (
  lines: readonly TitleLine[],
  number: Pick<NumberCandidate, 'box' | 'size'>,
  withoutBoilerplate: (text: string) => string | null = (text) => text,
  /** Lines the whole set prints (see onEverySheet): a title of those alone ranks below the sheet's own lines. */
  onEverySheet: (text: string) => boolean = () => false,
): TitleCandidate[] => {
  const nb = number.box;
  const usable = withoutRereadings(lines).flatMap((line) => {
    const text = withoutBoilerplate(line.text);
    return text === null ? [] : [{ ...line, text }];
  });
  const sorted = joinRowPieces(usable).sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  const groups: TitleLine[][] = [];
  for (const line of sorted) {
    const group = groups.find((grp) => {
      const last = grp[grp.length - 1];
      if (!last) return false;
      const gap = line.box.y0 - last.box.y1;
      const sameSize = Math.abs(line.size - last.size) <= 0.2 * Math.max(line.size, last.size);
      const overlap = Math.min(line.box.x1, last.box.x1) - Math.max(line.box.x0, last.box.x0) > -line.size;
      return sameSize && overlap && gap > -0.3 * line.size && gap < 0.9 * line.size;
    });
    if (group) group.push(line);
    else groups.push([line]);
  }
  // Size counts against the largest line read reliably: a large smudge OCR'd at low confidence (`uso`) is
  // not the block's largest lettering.
  const reliable = usable.filter((line) => (line.ocrConfidence ?? 100) >= RELIABLE_OCR_CONFIDENCE);
  const maxSize = Math.max(1, ...(reliable.length ? reliable : usable).map((line) => line.size));
  return groups
    .filter((group) => group.length <= 4)
    .map((group) => {
      const box = boxOf(group.map((line) => line.box));
      const size = Math.max(...group.map((line) => line.size));
      const text = group.map((line) => line.text).join(' ');
      const dx = Math.max(0, Math.max(box.x0 - nb.x1, nb.x0 - box.x1));
      const dy = Math.max(0, Math.max(box.y0 - nb.y1, nb.y0 - box.y1));
      const dist = Math.hypot(dx, dy) / Math.max(number.size, 8);
      let score =
        Math.min(1, size / maxSize) * 3 -
        Math.min(6, dist * 0.35) +
        Math.max(...group.map((line) => line.labelBonus));
      if (letters(text) >= 6) score += 0.5;
      if (text === text.toUpperCase()) score += 0.3;
      if (DRAWING_WORD_RE.test(text)) score += 0.8;
      const confidences = group.flatMap((line) =>
        line.ocrConfidence === undefined ? [] : [line.ocrConfidence],
      );
      const meanConfidence = confidences.length
        ? confidences.reduce((sum, confidence) => sum + confidence, 0) / confidences.length
        : null;
      if (meanConfidence !== null && meanConfidence < RELIABLE_OCR_CONFIDENCE)
        score -= Math.min(UNRELIABLE_OCR_PENALTY, (RELIABLE_OCR_CONFIDENCE - meanConfidence) / 10);
      if (letters(text) < MIN_TITLE_LETTERS && !DRAWING_WORD_RE.test(text)) score -= 1.5;
      if (group.every((line) => onEverySheet(line.text))) score -= SET_WIDE_LINE_PENALTY;
      return { text, lines: group.map((line) => line.text), box, size, score };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, 8);
};
