/**
 * `npm run replay -- log.jsonl [--json]`: runs a captured event log (JSON Lines, as the support menu
 * exports it) through the app's machines with every service stubbed and a simulated clock, and prints each
 * actor's state after each event, then every actor's final state. The same log always prints the same.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MACHINES } from '../src/machines/registry.js';
import { formatReplay, LogParseError, parseJsonLines, replayLog } from '../src/replay/replay.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { json: { type: 'boolean', default: false } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: npm run replay -- <log.jsonl> [--json]');
  process.exit(1);
}

/** The log's text; a file that cannot be read ends the script with one line saying why, not a stack trace. */
function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a log file'
          : `cannot be read (${code})`;
    console.error(`${path}: ${reason}`);
    process.exit(1);
  }
}

const text = readLog(file);
try {
  const result = replayLog(parseJsonLines(text), MACHINES);
  if (values.json) {
    for (const step of result.steps) console.log(JSON.stringify(step));
    for (const final of result.finals) console.log(JSON.stringify({ final: true, ...final }));
  } else {
    for (const line of formatReplay(result)) console.log(line);
  }
} catch (error) {
  console.error(error instanceof LogParseError ? `${file}: ${error.message}` : error);
  process.exit(1);
}
