/**
 * bench/review-eval: asks the labeled review questions of `labels/questions.json` (and this folder's
 * `questions.json`, questions answered by a table's row) about the ingested
 * corpus (bench/corpus-project.ts, shared with search-eval) through the local API, streams each
 * answer, and prints per question and overall:
 * - citation precision: of all citations made (every question), the share whose (file, page) is among
 *   the reference citations' pages of its question (a citation on an unanswerable question is wrong);
 * - citation recall: reference (file, page) pairs that some citation points to;
 * - key-fact match: the reference answer's figures (numbers, amounts, identifiers) found in the answer;
 * - abstention: unanswerable questions answered with no citation;
 * - time from the question to the first text delta and to completion (p50).
 *
 *   npm run bench:review-eval [-- --json FILE] [--fresh] [--verbose] [--only S-R04,S-R05]
 *
 * Reads CORPUS_DIR (default ../shared/corpus). Recall and key facts are per answerable question,
 * averaged (an abstention on an answerable question scores 0 on both); `answered` is the share of
 * answerable questions given at least one citation.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { corpusDir } from '../args.ts';
import { corpusProject } from '../corpus-project.ts';
import { recordResult } from '../results.ts';

const CORPUS = corpusDir;
const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const verbose = args.includes('--verbose');
const only = args.includes('--only') ? new Set((args[args.indexOf('--only') + 1] ?? '').split(',')) : null;

interface Question {
  id: string;
  question: string;
  referenceAnswer: string;
  citations: { file: string; page: number; quote: string }[];
  type: string;
}

const labelsFile = resolve(CORPUS, 'labels/questions.json');
if (!existsSync(labelsFile)) {
  console.log(`bench/review-eval: ${labelsFile} not found; nothing to measure.`);
  process.exit(0);
}
/** This project's own questions (same format), merged with the corpus's; those about absent files are skipped. */
const ownFile = resolve(import.meta.dirname ?? '.', 'questions.json');
const own = existsSync(ownFile)
  ? (JSON.parse(readFileSync(ownFile, 'utf8')) as { questions: Question[] }).questions.filter((question) =>
      question.citations.every((citation) => existsSync(resolve(CORPUS, citation.file))),
    )
  : [];
const questions = [
  ...(JSON.parse(readFileSync(labelsFile, 'utf8')) as { questions: Question[] }).questions,
  ...own,
].filter((question) => only === null || only.has(question.id));
const { stack, call, apiKey, projectId } = await corpusProject({
  corpus: CORPUS,
  fresh: args.includes('--fresh'),
  orgName: 'review-eval',
});
const baseName = (name: string) => name.split('/').pop() as string;

/** Figures of a text: numbers (with their $ and decimals), identifiers with digits, as lowercase tokens. */
function keyFacts(text: string): string[] {
  const tokens = text.match(/\$?\d[\d,]*(?:\.\d+)?|[A-Za-z]+[-.]?\d[\w.-]*/g) ?? [];
  return [...new Set(tokens.map((token) => token.replace(/[,$]/g, '').replace(/\.$/, '').toLowerCase()))];
}

const review = (
  await call(
    `/api/open/v1/projects/${projectId}/reviews`,
    'POST',
    { name: `review-eval ${Date.now()}` },
    {
      'idempotency-key': `review-eval-${Date.now()}`,
    },
  )
).review as { id: string };

interface Outcome {
  id: string;
  type: string;
  precision: number | null;
  recall: number | null;
  correctCitations: number;
  keyFacts: number;
  abstained: boolean;
  firstDeltaMs: number | null;
  completedMs: number;
  citations: number;
}
const outcomes: Outcome[] = [];
let answerer = '';
for (const question of questions) {
  const started = performance.now();
  const { execution } = await call(
    `/api/open/v1/projects/${projectId}/reviews/${review.id}/executions`,
    'POST',
    { question: question.question },
    { 'idempotency-key': `${question.id}-${Date.now()}` },
  );
  const response = await fetch(`${stack.apiUrl}${execution.streamUrl}`, {
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/x-ndjson' },
  }).catch(() => null);
  let firstDeltaMs: number | null = null;
  let text = '';
  const cited: { file: string; page: number; pageEnd: number }[] = [];
  const steps: string[] = [];
  if (response && response.status === 200 && response.body) {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const event = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
        if (event.type === 'response.text.delta' && firstDeltaMs === null)
          firstDeltaMs = performance.now() - started;
        if (event.type === 'citation')
          cited.push({
            file: event.payload.fileName,
            page: event.payload.pageNumber,
            pageEnd: event.payload.pageEnd,
          });
        if (event.type === 'response.completed') text = event.payload.text;
        if (verbose && event.type === 'tool.completed')
          steps.push(`  ${event.payload.name}: ${event.payload.hitCount ?? event.payload.sourceCount ?? 0}`);
        if (verbose && event.type === 'source.reviewed')
          steps.push(
            `  read ${event.payload.source.label} (${event.payload.fileName} p. ${event.payload.pageNumber})`,
          );
      }
    }
  }
  // Poll the execution until it is terminal (also the path when streaming was not possible).
  let polled = (await call(execution.url)).execution;
  while (polled.status === 'queued' || polled.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    polled = (await call(execution.url)).execution;
  }
  const completedMs = performance.now() - started;
  answerer = polled.answerer;
  if (!text) text = polled.answer ?? '';
  if (cited.length === 0)
    for (const citation of polled.citations as { fileName: string; pageNumber: number; pageEnd: number }[])
      cited.push({ file: citation.fileName, page: citation.pageNumber, pageEnd: citation.pageEnd });

  const answerable = question.type !== 'unanswerable';
  const reference = question.citations.map((citation) => ({
    file: baseName(citation.file),
    page: citation.page,
  }));
  const hits = (c: (typeof cited)[number]) =>
    reference.some((r) => r.file === c.file && r.page >= c.page && r.page <= c.pageEnd);
  const precision = answerable ? (cited.length ? cited.filter(hits).length / cited.length : 0) : null;
  const recall = answerable
    ? reference.filter((r) => cited.some((c) => r.file === c.file && r.page >= c.page && r.page <= c.pageEnd))
        .length / reference.length
    : null;
  const facts = keyFacts(question.referenceAnswer);
  const found = new Set(keyFacts(text));
  const keyFactShare = facts.length ? facts.filter((fact) => found.has(fact)).length / facts.length : 1;
  outcomes.push({
    id: question.id,
    type: question.type,
    precision,
    recall,
    keyFacts: keyFactShare,
    abstained: cited.length === 0,
    firstDeltaMs,
    completedMs,
    citations: cited.length,
    correctCitations: answerable ? cited.filter(hits).length : 0,
  });
  if (verbose) console.log(`\n${question.id} ${question.question}\n${steps.join('\n')}\n${text}\n`);
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor(sorted.length / 2)] as number) : 0;
};
const answerable = outcomes.filter((outcome) => outcome.precision !== null);
const unanswerable = outcomes.filter((outcome) => outcome.precision === null);
const overall = {
  citationPrecision:
    outcomes.reduce((sum, outcome) => sum + outcome.correctCitations, 0) /
    Math.max(
      1,
      outcomes.reduce((sum, outcome) => sum + outcome.citations, 0),
    ),
  answered: answerable.filter((outcome) => outcome.citations > 0).length / Math.max(1, answerable.length),
  citationRecall: mean(answerable.map((outcome) => outcome.recall as number)),
  keyFactMatch: mean(answerable.map((outcome) => outcome.keyFacts)),
  abstention: unanswerable.length
    ? unanswerable.filter((outcome) => outcome.abstained).length / unanswerable.length
    : 1,
  firstDeltaMsP50: median(
    outcomes.flatMap((outcome) => (outcome.firstDeltaMs === null ? [] : [outcome.firstDeltaMs])),
  ),
  completedMsP50: median(outcomes.map((outcome) => outcome.completedMs)),
};
const f = (value: number | null) => (value === null ? '–' : value.toFixed(2));
console.log(`\n${questions.length} labeled questions (${CORPUS}), answerer: ${answerer}`);
console.log(
  '| question | type | citations | precision | recall | key facts | abstained | first delta ms | completed ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const outcome of outcomes)
  console.log(
    `| ${outcome.id} | ${outcome.type} | ${outcome.citations} | ${f(outcome.precision)} | ${f(outcome.recall)} | ${f(outcome.keyFacts)} | ${outcome.abstained ? 'yes' : 'no'} | ${outcome.firstDeltaMs?.toFixed(0) ?? '–'} | ${outcome.completedMs.toFixed(0)} |`,
  );
console.log(
  `overall: citation precision ${f(overall.citationPrecision)} (${outcomes.reduce((sum, outcome) => sum + outcome.citations, 0)} citations), answered ${f(overall.answered)}, recall ${f(overall.citationRecall)}, key facts ${f(overall.keyFactMatch)}, abstention ${f(overall.abstention)}; first delta p50 ${overall.firstDeltaMsP50.toFixed(0)} ms, completed p50 ${overall.completedMsP50.toFixed(0)} ms (targets for the local answerer: precision >= 0.8, recall >= 0.6, abstention 1.0)`,
);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ overall, questions: outcomes }, null, 2)}\n`);
if (only) console.log('\n(a part of the questions: bench/results/review-eval.json is left as it was)');
else
  recordResult('review-eval', [
    {
      measure: `${questions.length} labeled questions (${answerer}): citation precision / recall / key facts`,
      result: `${f(overall.citationPrecision)} / ${f(overall.citationRecall)} / ${f(overall.keyFactMatch)}`,
      target: 'precision >= 0.8, recall >= 0.6',
    },
    { measure: 'unanswerable questions that abstain', result: f(overall.abstention), target: '1.00' },
    {
      measure: 'time to first delta / to completion, p50',
      result: `${overall.firstDeltaMsP50.toFixed(0)} / ${overall.completedMsP50.toFixed(0)} ms`,
    },
  ]);
await stack.stop();
process.exit(0);
