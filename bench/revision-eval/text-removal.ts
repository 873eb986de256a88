/**
 * Takes text off a page for real, not under a white box: the text-showing operators (`Tj`, `TJ`, `'`, `"`) of
 * the page's content streams whose starting point falls in one of the given display boxes get an empty
 * string, so neither the picture nor the text layer shows them any more. Positions follow the graphics state
 * (`q`/`Q`/`cm`), the text state (`BT`, `Tm`, `Td`, `TD`, `T*`, `TL`) and the forms drawn (`Do` of a form
 * XObject, through its /Matrix: an edited form becomes a new object of the page). A string's position is where
 * it starts; a string shown right after another without a move is placed where that one started.
 */
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  type PDFPage,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from 'pdf-lib';

export interface DisplayBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** `inner` then `outer`, as PDF concatenates matrices (row vectors). */
const times = (inner: Matrix, outer: Matrix): Matrix => [
  inner[0] * outer[0] + inner[1] * outer[2],
  inner[0] * outer[1] + inner[1] * outer[3],
  inner[2] * outer[0] + inner[3] * outer[2],
  inner[2] * outer[1] + inner[3] * outer[3],
  inner[4] * outer[0] + inner[5] * outer[2] + outer[4],
  inner[4] * outer[1] + inner[5] * outer[3] + outer[5],
];

/**
 * User space <-> display space of a page as viewers (and the engine) show it: the crop box's corner at the
 * top left, turned by /Rotate.
 */
export const displayTransform = (page: PDFPage) => {
  const crop = page.getCropBox();
  const [x0, y0, x1, y1] = [crop.x, crop.y, crop.x + crop.width, crop.y + crop.height];
  const rotation = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const toDisplay = (x: number, y: number): [number, number] =>
    rotation === 90
      ? [y - y0, x - x0]
      : rotation === 180
        ? [x1 - x, y - y0]
        : rotation === 270
          ? [y1 - y, x1 - x]
          : [x - x0, y1 - y];
  const toUser = (dx: number, dy: number): [number, number] =>
    rotation === 90
      ? [x0 + dy, y0 + dx]
      : rotation === 180
        ? [x1 - dx, y0 + dy]
        : rotation === 270
          ? [x1 - dy, y1 - dx]
          : [x0 + dx, y1 - dy];
  return { rotation, toDisplay, toUser };
};

interface Token {
  kind: 'operand' | 'operator';
  text: string;
  start: number;
  end: number;
}

const WHITE = new Set([0, 9, 10, 12, 13, 32]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((character) => character.charCodeAt(0)));

/** Tokens of a content stream (latin1): operands (numbers, names, strings, arrays, dictionaries) and operators. */
function* tokens(content: string): Generator<Token> {
  let at = 0;
  const n = content.length;
  const code = (index: number) => content.charCodeAt(index);
  const skipString = (from: number): number => {
    let depth = 0;
    for (let index = from; index < n; index++) {
      const character = content[index];
      if (character === '\\') index++;
      else if (character === '(') depth++;
      else if (character === ')' && --depth === 0) return index + 1;
    }
    return n;
  };
  // An array or a dictionary, nested, with the strings inside skipped whole.
  const skipGroup = (from: number, open: string, close: string): number => {
    let depth = 0;
    for (let index = from; index < n; ) {
      if (content[index] === '(') {
        index = skipString(index);
        continue;
      }
      if (content.startsWith(open, index)) {
        depth++;
        index += open.length;
        continue;
      }
      if (content.startsWith(close, index)) {
        depth--;
        index += close.length;
        if (depth === 0) return index;
        continue;
      }
      index++;
    }
    return n;
  };
  while (at < n) {
    const c = code(at);
    if (WHITE.has(c)) {
      at++;
      continue;
    }
    const start = at;
    const character = content[at];
    if (character === '%') {
      while (at < n && code(at) !== 10 && code(at) !== 13) at++;
      continue;
    }
    if (character === '(') at = skipString(at);
    else if (character === '[') at = skipGroup(at, '[', ']');
    else if (content.startsWith('<<', at)) at = skipGroup(at, '<<', '>>');
    else if (character === '<') at = content.indexOf('>', at) + 1 || n;
    else if (character === '/') {
      at++;
      while (at < n && !WHITE.has(code(at)) && !DELIMITERS.has(code(at))) at++;
    } else {
      at++;
      while (at < n && !WHITE.has(code(at)) && !DELIMITERS.has(code(at))) at++;
    }
    const text = content.slice(start, at);
    const isOperator =
      /^[A-Za-z'"*]+[0-9]?$/.test(text) && text !== 'true' && text !== 'false' && text !== 'null';
    if (isOperator && text === 'ID') {
      // Inline image data: binary up to `EI` standing alone.
      const end = content.slice(at).search(/\sEI(?=\s|$)/);
      at = end < 0 ? n : at + end + 3;
      continue;
    }
    yield { kind: isOperator ? 'operator' : 'operand', text, start, end: at };
  }
}

const contentStreams = (doc: PDFDocument, page: PDFPage): PDFStream[] => {
  const contents = page.node.Contents();
  if (!contents) return [];
  if (contents instanceof PDFArray)
    return contents
      .asArray()
      .map((item) => (item instanceof PDFRef ? doc.context.lookup(item) : item))
      .filter((item): item is PDFStream => item instanceof PDFStream);
  return contents instanceof PDFStream ? [contents] : [];
};

const decoded = (stream: PDFStream): string =>
  Buffer.from(
    stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents(),
  ).toString('latin1');

/** Form XObjects are followed this deep (a form drawn inside a form drawn by the page). */
const MAX_FORM_DEPTH = 3;

/**
 * The content with the text shown inside `boxes` emptied, and the resources it draws with (a copy naming the
 * edited forms, when a form drawn by it had text taken off); null when nothing was taken off.
 */
const editContent = (
  doc: PDFDocument,
  content: string,
  startCtm: Matrix,
  resources: PDFDict | undefined,
  inBoxes: (x: number, y: number) => boolean,
  depth: number,
): { content: string; resources: PDFDict | undefined; emptied: number } | null => {
  const edits: { start: number; end: number; text: string }[] = [];
  const editedForms = new Map<string, PDFRef>();
  let emptied = 0;
  let ctm: Matrix = startCtm;
  const stack: Matrix[] = [];
  let textMatrix: Matrix = IDENTITY;
  let lineMatrix: Matrix = IDENTITY;
  let leading = 0;
  let operands: Token[] = [];
  const number = (index: number) => Number(operands[operands.length - index]?.text ?? 0);
  const matrixOperands = (): Matrix => [number(6), number(5), number(4), number(3), number(2), number(1)];
  const moveLine = (tx: number, ty: number) => {
    lineMatrix = times([1, 0, 0, 1, tx, ty], lineMatrix);
    textMatrix = lineMatrix;
  };
  const show = (operand: Token | undefined) => {
    if (!operand) return;
    const x = textMatrix[4] * ctm[0] + textMatrix[5] * ctm[2] + ctm[4];
    const y = textMatrix[4] * ctm[1] + textMatrix[5] * ctm[3] + ctm[5];
    if (!inBoxes(x, y)) return;
    edits.push({ start: operand.start, end: operand.end, text: operand.text.startsWith('[') ? '[]' : '()' });
    emptied++;
  };
  const drawForm = (name: string) => {
    if (depth >= MAX_FORM_DEPTH || editedForms.has(name)) return;
    const xobjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    const form = xobjects?.lookupMaybe(PDFName.of(name), PDFStream);
    if (form?.dict.get(PDFName.of('Subtype'))?.toString() !== '/Form') return;
    const matrix = form.dict.lookupMaybe(PDFName.of('Matrix'), PDFArray);
    const formMatrix = (matrix?.asArray().map((item) => Number(item.toString())) ?? IDENTITY) as Matrix;
    const formResources = form.dict.lookupMaybe(PDFName.of('Resources'), PDFDict) ?? resources;
    const edited = editContent(doc, decoded(form), times(formMatrix, ctm), formResources, inBoxes, depth + 1);
    if (!edited) return;
    // The edited form is a new object: the page's copy of a form other pages draw stays as it was.
    const dict = form.dict.clone(doc.context);
    dict.delete(PDFName.of('Filter'));
    dict.delete(PDFName.of('DecodeParms'));
    if (edited.resources && edited.resources !== formResources)
      dict.set(PDFName.of('Resources'), edited.resources);
    const stream = doc.context.flateStream(Buffer.from(edited.content, 'latin1'));
    for (const [key, value] of dict.entries()) if (key.toString() !== '/Length') stream.dict.set(key, value);
    editedForms.set(name, doc.context.register(stream));
    emptied += edited.emptied;
  };
  for (const token of tokens(content)) {
    if (token.kind === 'operand') {
      operands.push(token);
      continue;
    }
    switch (token.text) {
      case 'q':
        stack.push(ctm);
        break;
      case 'Q':
        ctm = stack.pop() ?? startCtm;
        break;
      case 'cm':
        ctm = times(matrixOperands(), ctm);
        break;
      case 'BT':
        textMatrix = IDENTITY;
        lineMatrix = IDENTITY;
        break;
      case 'Tm':
        lineMatrix = matrixOperands();
        textMatrix = lineMatrix;
        break;
      case 'Td':
        moveLine(number(2), number(1));
        break;
      case 'TD':
        leading = -number(1);
        moveLine(number(2), number(1));
        break;
      case 'TL':
        leading = number(1);
        break;
      case 'T*':
        moveLine(0, -leading);
        break;
      case 'Tj':
      case 'TJ':
        show(operands.at(-1));
        break;
      case "'":
      case '"':
        moveLine(0, -leading);
        show(operands.at(-1));
        break;
      case 'Do':
        drawForm((operands.at(-1)?.text ?? '').slice(1));
        break;
    }
    operands = [];
  }
  if (emptied === 0) return null;
  let edited = '';
  let last = 0;
  for (const edit of edits) {
    edited += content.slice(last, edit.start) + edit.text;
    last = edit.end;
  }
  edited += content.slice(last);
  let newResources = resources;
  if (resources && editedForms.size > 0) {
    newResources = resources.clone(doc.context);
    const xobjects = (resources.lookupMaybe(PDFName.of('XObject'), PDFDict) as PDFDict).clone(doc.context);
    for (const [name, ref] of editedForms) xobjects.set(PDFName.of(name), ref);
    newResources.set(PDFName.of('XObject'), xobjects);
  }
  return { content: edited, resources: newResources, emptied };
};

/**
 * Removes the text shown from inside `boxes` (display space), in the page's content and the forms it draws;
 * returns how many text operators were emptied.
 */
export const removeTextIn = (doc: PDFDocument, page: PDFPage, boxes: readonly DisplayBox[]): number => {
  if (boxes.length === 0) return 0;
  const { toDisplay } = displayTransform(page);
  const inBoxes = (x: number, y: number) => {
    const [dx, dy] = toDisplay(x, y);
    return boxes.some((box) => dx >= box.x0 && dx <= box.x1 && dy >= box.y0 && dy <= box.y1);
  };
  const content = contentStreams(doc, page).map(decoded).join('\n');
  const resources = page.node.Resources();
  const edited = editContent(doc, content, IDENTITY, resources, inBoxes, 0);
  if (!edited) return 0;
  page.node.set(
    PDFName.of('Contents'),
    doc.context.register(doc.context.flateStream(Buffer.from(edited.content, 'latin1'))),
  );
  if (edited.resources && edited.resources !== resources)
    page.node.set(PDFName.of('Resources'), edited.resources);
  return edited.emptied;
};
