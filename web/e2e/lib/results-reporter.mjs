// A node:test reporter for web/e2e/run.mjs: one JSON line per finished test (name, pass or fail, duration), so
// the runner can count results and name the tests that failed without parsing the spec reporter's text.
/**
 * @param {AsyncIterable<{type: string, data: any}>} source
 * @returns {AsyncGenerator<string>}
 */
export default async function* resultsReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, details, skip, todo } = event.data;
    if (details?.type === 'suite') continue;
    yield `${JSON.stringify({
      name,
      nesting,
      ok: event.type === 'test:pass',
      skipped: Boolean(skip || todo),
      ms: Math.round(details?.duration_ms ?? 0),
      ...(event.type === 'test:fail' ? { message: String(details?.error?.cause?.message ?? details?.error?.message ?? '') } : {}),
    })}\n`;
  }
}
