import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';

/** Packages of the extraction engine that esbuild cannot bundle (native binaries, wasm, worker scripts). */
export const ENGINE_MODULES = ['@napi-rs/canvas', 'pdfjs-dist', 'tesseract.js', '@tesseract.js-data/eng'];

const REPO_ROOT = resolve(import.meta.dirname ?? '.', '..');
const SKIPPED = /(\.map|\.d\.ts|\.d\.mts|\.md|\.markdown)$|\/(web|types|docs|test|tests)\//;

/** The engine packages and everything they depend on, as installed in node_modules. */
export function engineClosure(root = REPO_ROOT): string[] {
  const seen = new Set<string>();
  const queue = [...ENGINE_MODULES];
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

/**
 * A Lambda layer with the engine's native and wasm packages, copied from this machine's
 * node_modules at synth time (no Docker, no download). The native canvas binary installed here is
 * linux-x64-gnu, so functions using the layer run on x86_64.
 */
export function engineLayer(scope: Construct, id: string): LayerVersion {
  const packages = engineClosure();
  const versions = packages.map((name) => {
    const manifest = JSON.parse(
      readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8'),
    ) as { version: string };
    return `${name}@${manifest.version}`;
  });
  return new LayerVersion(scope, id, {
    description: `Extraction engine runtime: ${versions.join(', ')}`.slice(0, 256),
    compatibleRuntimes: [Runtime.NODEJS_24_X],
    compatibleArchitectures: [Architecture.X86_64],
    code: Code.fromAsset(REPO_ROOT, {
      assetHashType: AssetHashType.CUSTOM,
      assetHash: createHash('sha256').update(versions.join('\n')).digest('hex'),
      bundling: {
        image: DockerImage.fromRegistry('local-bundling-only'),
        local: {
          tryBundle(outputDir: string) {
            for (const name of packages) {
              const target = join(outputDir, 'nodejs', 'node_modules', name);
              mkdirSync(target, { recursive: true });
              cpSync(join(REPO_ROOT, 'node_modules', name), target, {
                recursive: true,
                dereference: true,
                filter: (source) => !SKIPPED.test(source.replaceAll('\\', '/')),
              });
            }
            return true;
          },
        },
      },
    }),
  });
}
