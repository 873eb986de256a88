import type { Reporter, TestModule } from 'vitest/node';

interface Tier {
  files: number;
  firstStart: number;
  lastEnd: number;
  /** Sum of the files' own durations (files of a tier may run side by side). */
  fileMs: number;
}

/**
 * Prints each test tier's time at the end of a run (Vitest's projects: unit, engine, integration,
 * infra): wall time from its first file's start to its last file's end, and the sum of its files'
 * durations. CI's output (`npm test`) carries it, so a tier that slows down shows.
 */
export default class TierTimings implements Reporter {
  private readonly tiers = new Map<string, Tier>();
  private readonly started = new Map<string, number>();

  onTestModuleStart(testModule: TestModule): void {
    this.started.set(testModule.moduleId, Date.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    const end = Date.now();
    const start = this.started.get(testModule.moduleId) ?? end;
    const name = testModule.project.name || 'default';
    const tier = this.tiers.get(name) ?? { files: 0, firstStart: start, lastEnd: end, fileMs: 0 };
    tier.files++;
    tier.firstStart = Math.min(tier.firstStart, start);
    tier.lastEnd = Math.max(tier.lastEnd, end);
    tier.fileMs += testModule.diagnostic().duration;
    this.tiers.set(name, tier);
  }

  onTestRunEnd(): void {
    if (this.tiers.size === 0) return;
    const lines = [...this.tiers].map(
      ([name, tier]) =>
        `  ${name.padEnd(12)} ${String(tier.files).padStart(3)} files  ${((tier.lastEnd - tier.firstStart) / 1000).toFixed(1).padStart(6)} s wall  ${(tier.fileMs / 1000).toFixed(1).padStart(6)} s in files`,
    );
    process.stdout.write(`\nTest tiers:\n${lines.join('\n')}\n`);
  }
}
