/**
 * Long straight lines (rulings) of a page, from its operator list: title-block borders, table grids.
 * Only axis-aligned segments longer than a minimum length are kept, in display coordinates.
 */
import type { PageGeometry, PdfJs, PdfPage } from './pdf.ts';

export interface Ruling {
  /** 'h' horizontal (y fixed), 'v' vertical (x fixed). */
  axis: 'h' | 'v';
  /** Fixed coordinate (y for 'h', x for 'v'). */
  at: number;
  from: number;
  to: number;
}

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

const apply = (m: Matrix, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

/** Axis-aligned segments of at least `minLength` points, merged when collinear and touching. */
export const readRulings = async (
  page: PdfPage,
  pdfjs: PdfJs,
  geometry: PageGeometry,
  minLength: number,
  maxOps: number,
): Promise<Ruling[]> => {
  const list = await page.getOperatorList({ intent: 'display' });
  const { OPS } = pdfjs;
  const fn = list.fnArray;
  const args = list.argsArray as unknown[][];
  if (fn.length > maxOps) return [];
  const base = geometry.transform as Matrix;
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  const out: Ruling[] = [];
  const push = (x0: number, y0: number, x1: number, y1: number): void => {
    const m = multiply(base, ctm);
    const [ax, ay] = apply(m, x0, y0);
    const [bx, by] = apply(m, x1, y1);
    if (Math.abs(ay - by) < 0.5 && Math.abs(ax - bx) >= minLength) {
      out.push({ axis: 'h', at: (ay + by) / 2, from: Math.min(ax, bx), to: Math.max(ax, bx) });
    } else if (Math.abs(ax - bx) < 0.5 && Math.abs(ay - by) >= minLength) {
      out.push({ axis: 'v', at: (ax + bx) / 2, from: Math.min(ay, by), to: Math.max(ay, by) });
    }
  };
  for (let i = 0; i < fn.length; i++) {
    const op = fn[i];
    const a = args[i];
    if (op === OPS.save) stack.push(ctm);
    else if (op === OPS.restore) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (op === OPS.transform && a) ctm = multiply(ctm, a as unknown as Matrix);
    else if (op === OPS.paintFormXObjectBegin && a) {
      stack.push(ctm);
      const matrix = a[0] as Matrix | null;
      if (matrix) ctm = multiply(ctm, matrix);
    } else if (op === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (op === OPS.constructPath && a) {
      const data = (a[1] as unknown[] | undefined)?.[0];
      if (!data || typeof (data as ArrayLike<number>).length !== 'number') continue;
      const d = data as ArrayLike<number>;
      let cx = 0;
      let cy = 0;
      let sx = 0;
      let sy = 0;
      for (let k = 0; k < d.length; ) {
        const code = d[k++];
        if (code === 0) {
          cx = d[k++]!;
          cy = d[k++]!;
          sx = cx;
          sy = cy;
        } else if (code === 1) {
          const x = d[k++]!;
          const y = d[k++]!;
          push(cx, cy, x, y);
          cx = x;
          cy = y;
        } else if (code === 2) {
          k += 4;
          cx = d[k++]!;
          cy = d[k++]!;
        } else if (code === 3) {
          k += 2;
          cx = d[k++]!;
          cy = d[k++]!;
        } else if (code === 4) {
          push(cx, cy, sx, sy);
          cx = sx;
          cy = sy;
        } else {
          break;
        }
      }
    }
  }
  return mergeRulings(out);
};

const mergeRulings = (rulings: Ruling[]): Ruling[] => {
  const merged: Ruling[] = [];
  for (const axis of ['h', 'v'] as const) {
    const list = rulings.filter((r) => r.axis === axis).sort((a, b) => a.at - b.at || a.from - b.from);
    let current: Ruling | null = null;
    for (const r of list) {
      if (current && Math.abs(r.at - current.at) < 1 && r.from <= current.to + 2) {
        current.to = Math.max(current.to, r.to);
      } else {
        if (current) merged.push(current);
        current = { ...r };
      }
    }
    if (current) merged.push(current);
  }
  return merged;
};
