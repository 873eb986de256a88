import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Architecture, Code, type ILayerVersion, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';

/**
 * Lambda layers of packages esbuild cannot bundle (native binaries, wasm, worker scripts), copied
 * from this machine's node_modules at synth time (no Docker, no download). The native binaries
 * installed here are linux-x64-gnu, so functions using a layer run on x86_64.
 */
export const NATIVE_LAYERS = {
  /** The extraction engine: canvas, pdf.js, tesseract and its English data. */
  engine: {
    modules: ['@napi-rs/canvas', 'pdfjs-dist', 'tesseract.js', '@tesseract.js-data/eng'],
    description: 'Extraction engine runtime',
    strip: false,
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
  },
} as const;
export type NativeLayerName = keyof typeof NATIVE_LAYERS;

export interface NativeLayer {
  layer: ILayerVersion;
  /** Packages the layer provides: external to the function's bundle. */
  modules: readonly string[];
}

const REPO_ROOT = resolve(import.meta.dirname ?? '.', '..');
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

export function nativeLayer(scope: Construct, id: string, name: NativeLayerName): NativeLayer {
  const spec = NATIVE_LAYERS[name];
  const packages = packageClosure(spec.modules);
  const versions = packages.map((pkg) => {
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
    code: Code.fromAsset(REPO_ROOT, {
      assetHashType: AssetHashType.CUSTOM,
      assetHash: createHash('sha256')
        .update(`${name}\n${spec.strip}\n${versions.join('\n')}`)
        .digest('hex'),
      bundling: {
        image: DockerImage.fromRegistry('local-bundling-only'),
        local: {
          tryBundle(outputDir: string) {
            for (const pkg of packages) {
              const target = join(outputDir, 'nodejs', 'node_modules', pkg);
              mkdirSync(target, { recursive: true });
              cpSync(join(REPO_ROOT, 'node_modules', pkg), target, {
                recursive: true,
                dereference: true,
                filter: (source) => !SKIPPED.test(source.replaceAll('\\', '/')),
              });
            }
            if (spec.strip) stripNativeBinaries(outputDir);
            return true;
          },
        },
      },
    }),
  });
  return { layer, modules: spec.modules };
}
