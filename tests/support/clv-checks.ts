import type { Database } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { seededRandom } from './clv-simulation.js';
import { makeLocation, systemScope } from './factories.js';

/**
 * Stores a year of visits for `guests` guests of the company through `ingestChecks` (guests made by POS id),
 * seeded, ending by 2025-12-31: about seven in ten come back every few weeks for a while. Returns the checks
 * stored. 450 guests give a model fit (over 200 repeat guests); a few dozen give historical figures.
 */
export async function storeVisits(
  db: Database,
  companyId: number,
  guests: number,
  seed = 42,
): Promise<number> {
  const random = seededRandom(seed);
  const location = await makeLocation(db, companyId);
  const start = Date.parse('2025-01-01T20:00:00Z');
  const end = Date.parse('2025-12-31T20:00:00Z');
  const day = 86_400_000;
  const checks: IngestCheck[] = [];
  for (let guest = 0; guest < guests; guest++) {
    const posId = `C-${seed}-${guest}`;
    let closed = start + Math.floor(random() * 330) * day;
    const regular = random() < 0.7;
    do {
      checks.push({
        location_id: location.id,
        check_number: `${posId}-${closed}`,
        opened_at: new Date(closed - 3_600_000),
        closed_at: new Date(closed),
        total: 1500 + Math.floor(random() * 6000),
        guest: { pos_id: posId },
        lines: [],
      });
      closed += (3 + Math.floor(random() * 40)) * day;
    } while (regular && closed <= end && random() < 0.8);
  }
  await db.tenant(companyId, (sql) => ingestChecks(sql, systemScope(companyId), checks));
  return checks.length;
}
