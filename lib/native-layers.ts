import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Architecture, Code, type ILayerVersion, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';

/**
 * Lambda layers of packages esbuild cannot bundle (native binaries, wasm, worker scripts), copied
 * from this machine's node_modules at synth time (no Docker, no download). The native binaries
 * installed here are linux-x64-gnu, so functions using a layer run on x86_64.
 */
export const NATIVE_LAYERS = {
  /**
   * The extraction engine: PDFium (WebAssembly: text and renders), pdf.js (operator lists), canvas, sharp
   * (PNG encoding of crops and overlays), tesseract and its English data.
   */
  engine: {
    modules: [
      '@embedpdf/pdfium',
      '@napi-rs/canvas',
      'pdfjs-dist',
      'sharp',
      'tesseract.js',
      '@tesseract.js-data/eng',
    ],
    description: 'Extraction engine runtime',
    strip: false,
    /** Packages that must hold their platform binary (a `.node` file), or the synth fails. */
    binaries: ['@napi-rs/canvas-linux-x64-gnu', '@img/sharp-linux-x64'],
    /**
     * Left out: pdf.js's own nested copy of the canvas binary (33 MB; it then resolves the engine's
     * copy, which also draws every canvas) and its modern build (the engine loads `legacy/`); PDFium's
     * browser and CommonJS builds (the engine imports its ES module for Node).
     */
    prune: [
      'pdfjs-dist/node_modules',
      'pdfjs-dist/build',
      '@embedpdf/pdfium/dist/index.browser.js',
      '@embedpdf/pdfium/dist/index.cjs',
    ],
  },
  /**
   * The project source index: LanceDB and Apache Arrow (one copy, shared by our code and LanceDB's,
   * so Arrow's classes are the same). The LanceDB binary is stripped of its symbols (202 MB ->
   * 168 MB for 0.39.0) to fit Lambda's 250 MB unzipped limit.
   */
  index: {
    modules: ['@lancedb/lancedb', 'apache-arrow'],
    description: 'Source index runtime',
    strip: true,
    binaries: ['@lancedb/lancedb-linux-x64-gnu'],
    prune: [],
  },
} as const satisfies Record<
  string,
  {
    modules: readonly string[];
    description: string;
    strip: boolean;
    binaries: readonly string[];
    prune: readonly string[];
  }
>;
export type NativeLayerName = keyof typeof NATIVE_LAYERS;

export interface NativeLayer {
  layer: ILayerVersion;
  /** Packages the layer provides: external to the function's bundle. */
  modules: readonly string[];
}

const REPO_ROOT = resolve(import.meta.dirname ?? '.', '..');
/** Files and folders no function reads, matched on the path inside the package (never above it). */
const SKIPPED = /(\.map|\.d\.ts|\.d\.mts|\.md|\.markdown)$|\/(web|types|docs|test|tests)\//;

/** The packages and everything they depend on, as installed in node_modules. */
export function packageClosure(modules: readonly string[], root = REPO_ROOT): string[] {
  const seen = new Set<string>();
  const queue = [...modules];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    const directory = join(root, 'node_modules', name);
    if (seen.has(name) || !existsSync(directory)) continue;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    queue.push(...Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }));
  }
  return [...seen].sort();
}

function stripNativeBinaries(directory: string): void {
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.node'))
      execFileSync('strip', ['--strip-unneeded', join(entry.parentPath, entry.name)]);
  }
}

/**
 * Stages a layer's packages in a folder of their own (`nodejs/node_modules/...`): copied from
 * node_modules without what no function reads, pruned, stripped when asked. Fails when a platform
 * binary is missing, so a broken layer never deploys. The layer's asset hash is the hash of this
 * staged content, so any change of what ships changes the asset.
 */
export function stageLayer(
  name: NativeLayerName,
  root = REPO_ROOT,
  // One folder per checkout, replaced by each synth (gitignored).
  into = join(root, '.layers', name),
): string {
  const spec = NATIVE_LAYERS[name];
  rmSync(into, { recursive: true, force: true });
  const modules = join(into, 'nodejs', 'node_modules');
  for (const pkg of packageClosure(spec.modules, root)) {
    const source = join(root, 'node_modules', pkg);
    const target = join(modules, pkg);
    mkdirSync(target, { recursive: true });
    cpSync(source, target, {
      recursive: true,
      dereference: true,
      filter: (path) => !SKIPPED.test(`/${relative(source, path).replaceAll('\\', '/')}`),
    });
  }
  for (const path of spec.prune) rmSync(join(modules, path), { recursive: true, force: true });
  if (spec.strip) stripNativeBinaries(into);
  for (const pkg of spec.binaries) {
    const directory = join(modules, pkg);
    const found =
      existsSync(directory) &&
      readdirSync(directory, { recursive: true }).some((entry) => String(entry).endsWith('.node'));
    if (!found)
      throw new Error(
        `The ${name} layer has no platform binary in ${pkg}: install dependencies on linux-x64 (npm install, optional dependencies included) before synthesizing.`,
      );
  }
  return into;
}

export function nativeLayer(scope: Construct, id: string, name: NativeLayerName): NativeLayer {
  const spec = NATIVE_LAYERS[name];
  const versions = packageClosure(spec.modules).map((pkg) => {
    const manifest = JSON.parse(
      readFileSync(join(REPO_ROOT, 'node_modules', pkg, 'package.json'), 'utf8'),
    ) as {
      version: string;
    };
    return `${pkg}@${manifest.version}`;
  });
  const layer = new LayerVersion(scope, id, {
    description: `${spec.description}: ${versions.join(', ')}`.slice(0, 256),
    compatibleRuntimes: [Runtime.NODEJS_24_X],
    compatibleArchitectures: [Architecture.X86_64],
    // Hashed from the staged files themselves (the default for a folder asset). A synth that skips
    // bundling (the local stack reads only the functions' environments) stages nothing either.
    code: Code.fromAsset(
      Stack.of(scope).bundlingRequired ? stageLayer(name) : mkdtempSync(join(tmpdir(), 'psa-layer-')),
    ),
  });
  return { layer, modules: spec.modules };
}
