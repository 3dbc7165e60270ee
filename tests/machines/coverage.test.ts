import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MACHINES_DIR = join(import.meta.dirname, '../../src/machines');
const TESTS_DIR = import.meta.dirname;

/** Every statechart of the app: `src/machines/<name>.machine.ts`. */
const machines = readdirSync(MACHINES_DIR)
  .filter((file) => file.endsWith('.machine.ts'))
  .map((file) => file.slice(0, -'.machine.ts'.length))
  .sort();

/** True when a test file builds a model with @xstate/graph's createTestModel and walks it. */
function usesCreateTestModel(source: string): boolean {
  return /from\s+['"]@xstate\/graph['"]/.test(source) && /\bcreateTestModel\s*\(/.test(source);
}

describe('every machine has a model-based test', () => {
  it('finds the machines', () => {
    expect(machines.length).toBeGreaterThan(0);
  });

  for (const name of machines) {
    it(`${name}.machine.ts is walked by tests/machines/${name}.machine.test.ts with createTestModel`, () => {
      const testFile = join(TESTS_DIR, `${name}.machine.test.ts`);
      expect(existsSync(testFile), `missing tests/machines/${name}.machine.test.ts`).toBe(true);
      expect(usesCreateTestModel(readFileSync(testFile, 'utf8')), `${name}: no createTestModel`).toBe(true);
    });
  }
});
