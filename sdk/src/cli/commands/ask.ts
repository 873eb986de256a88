import type { PsaNodeClient } from '../../node.ts';
import type { ReviewCitation } from '../../types.ts';

/**
 * `psa ask`: a review (given, or a new one named after the question), the question, then the answer
 * written to stdout as its deltas arrive and its citations numbered by their markers.
 */
export async function askQuestion(
  psa: PsaNodeClient,
  options: { projectId: string; question: string; reviewId: string | undefined; json: boolean },
): Promise<void> {
  const question = options.question.trim();
  if (!question) throw new Error('The question is empty.');
  const reviewId =
    options.reviewId ?? (await psa.reviews.create(options.projectId, question.slice(0, 120))).id;
  const execution = await psa.reviews.ask(options.projectId, reviewId, question);
  const citations: ReviewCitation[] = [];
  let answer = '';
  let outcome: { status: string; error: { code: string; message: string } | null } = {
    status: 'unknown',
    error: null,
  };
  for await (const event of psa.streamExecution(execution)) {
    if (event.type === 'response.text.delta') {
      answer += event.payload.delta;
      if (!options.json) process.stdout.write(event.payload.delta);
    } else if (event.type === 'citation') {
      citations.push(event.payload);
    } else if (event.type === 'tool.started' && !options.json && process.stderr.isTTY) {
      process.stderr.write(`[${event.payload.name}]\n`);
    } else if (event.type === 'response.completed') {
      answer = event.payload.text;
      outcome = { status: event.payload.status, error: null };
    } else if (event.type === 'response.error') {
      outcome = { status: 'failed', error: { code: event.payload.code, message: event.payload.message } };
    }
  }
  citations.sort((a, b) => a.marker - b.marker);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ reviewId, executionId: execution.id, ...outcome, answer, citations }, null, 2)}\n`,
    );
  } else {
    if (outcome.error) process.stderr.write(`\nerror: ${outcome.error.message} (${outcome.error.code})\n`);
    if (citations.length) process.stdout.write('\n\nCitations\n');
    for (const citation of citations) {
      const where = citation.sheetNumber ?? citation.sectionNumber ?? '';
      const pages =
        citation.pageEnd !== citation.pageNumber
          ? `pp. ${citation.pageNumber}-${citation.pageEnd}`
          : `p. ${citation.pageNumber}`;
      process.stdout.write(
        `[${citation.marker}] ${citation.fileName} ${pages}${where ? ` · ${where}` : ''} — “${citation.quote}”\n` +
          `    ${citation.sourceCatalogUri}\n`,
      );
    }
    if (!citations.length) process.stdout.write('\n');
  }
  if (outcome.error) process.exitCode = 1;
}
