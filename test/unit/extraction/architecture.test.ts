import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The extraction engine's split (docs/extraction.md, I/O layer): only the I/O modules touch a PDF library, the
 * rasterizer, tesseract, worker threads or V8; the reading modules are functions over plain values (words,
 * lines, rulings, boxes) and import neither those libraries nor, other than for types, an I/O module.
 */
const ENGINE = resolve(import.meta.dirname, '../../../functions/core/extraction');

/** The I/O layer: the modules that open, parse, render, OCR, or run threads. */
const IO_MODULES = new Set([
  'artifacts.ts',
  'bilevel-images.ts',
  'bubble-views.ts',
  'bubbles.ts',
  'cli.ts',
  'decompression.ts',
  'drawing-ocr.ts',
  'index.ts',
  'ocr-cells.ts',
  'ocr.ts',
  'operator-groups.ts',
  'page.ts',
  'pdf-port.ts',
  'pdf-structure.ts',
  'pdf-worker.d.ts',
  'pdf.ts',
  'render.ts',
  'rulings.ts',
  'sheets.ts',
  'table-ocr.ts',
  'title-block-ocr.ts',
  'v8-tuning.ts',
  'warm-document.ts',
  'worker-entry.ts',
  'workers.ts',
]);
const IO_PACKAGES =
  /^(?:pdfjs-dist|@napi-rs\/canvas|tesseract\.js|@embedpdf\/|pdf-lib|node:worker_threads|node:v8)/;

/** Value imports (not `import type`) of a file, with their specifiers. */
const valueImports = (file: string): string[] => {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*import\s+(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]/gms)].map(
    (match) => match[1] as string,
  );
};

const readingModules = readdirSync(ENGINE).filter((name) => name.endsWith('.ts') && !IO_MODULES.has(name));

describe('the extraction engine split', () => {
  it('has reading modules to check', () => {
    expect(readingModules.length).toBeGreaterThan(20);
    expect(readingModules).toContain('sheet-set.ts');
  });

  it('keeps PDF, raster, OCR and thread libraries and I/O modules out of the reading modules', () => {
    const offending = readingModules.flatMap((name) =>
      valueImports(join(ENGINE, name))
        .filter(
          (specifier) =>
            IO_PACKAGES.test(specifier) ||
            (specifier.startsWith('./') && IO_MODULES.has(specifier.slice(2))) ||
            specifier.startsWith('./io/'),
        )
        .map((specifier) => `${name} -> ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});
