import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The extraction engine's split (docs/extraction.md, Layout): `io/` opens, parses, renders, OCRs and runs
 * threads, `pages/` orchestrates a page's reads (I/O) and its reading; the reading modules (`drawings/`,
 * `specifications/`, `assembly/` and the shared value modules at the engine's root) are functions over plain
 * values (words, lines, rulings, boxes) and import neither those libraries nor, other than for types, a
 * module of `io/` or `pages/`.
 */
const ENGINE = resolve(import.meta.dirname, '../../../functions/engine');

/** Folders whose modules may do I/O, and the engine's entry points (they wire I/O and reading together). */
const IO_FOLDERS = ['io', 'pages'];
const ENTRY_POINTS = new Set(['index.ts', 'cli.ts']);
const IO_PACKAGES =
  /^(?:pdfjs-dist|@napi-rs\/canvas|sharp|tesseract\.js|@embedpdf\/|pdf-lib|node:worker_threads|node:v8|node:fs|node:child_process)/;

const engineFiles = (readdirSync(ENGINE, { recursive: true }) as string[]).filter((name) =>
  name.endsWith('.ts'),
);
const isIo = (name: string): boolean =>
  IO_FOLDERS.some((folder) => name.startsWith(`${folder}/`)) || ENTRY_POINTS.has(name);

/** Value imports (not `import type`) of a file, with their specifiers. */
const valueImports = (file: string): string[] => {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*import\s+(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]/gms)].map(
    (match) => match[1] as string,
  );
};

const readingModules = engineFiles.filter((name) => !isIo(name));

describe('the extraction engine split', () => {
  it('has reading modules in each reading folder', () => {
    expect(readingModules).toContain('drawings/sheet-set.ts');
    expect(readingModules).toContain('specifications/spec-sections.ts');
    expect(readingModules).toContain('assembly/assemble.ts');
    expect(readingModules.length).toBeGreaterThan(25);
  });

  it('keeps PDF, raster, OCR, thread and file libraries and I/O modules out of the reading modules', () => {
    const offending = readingModules.flatMap((name) =>
      valueImports(join(ENGINE, name))
        .filter((specifier) => {
          if (IO_PACKAGES.test(specifier)) return true;
          if (!specifier.startsWith('.')) return false;
          const target = relative(ENGINE, resolve(dirname(join(ENGINE, name)), specifier));
          return target.startsWith('..') || isIo(target);
        })
        .map((specifier) => `${name} -> ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});
