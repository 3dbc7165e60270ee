/**
 * How the flow runner splits a turn's claimed enrolments (docs/flows.md, "Speed"): into `lanes` that run at the
 * same time, each a sequence of one-company chunks of at most `perTransaction` enrolments. A person's enrolments
 * (in several flows) always share a lane, so their steps still run one after another and each email step's
 * frequency cap sees the emails before it; an erased person (no subscriber) goes by enrolment.
 */

/** One transaction's worth: enrolments of one company. */
export interface FlowChunk {
  companyId: number;
  ids: number[];
}

/** The claimed enrolments as lanes of chunks, ids ascending within each company. */
export function laneChunks(
  claimed: readonly { id: number; company_id: number; subscriber_id: number | null }[],
  lanes: number,
  perTransaction: number,
): FlowChunk[][] {
  const count = Math.max(1, Math.floor(lanes));
  const byLane = Array.from({ length: count }, () => new Map<number, number[]>());
  for (const row of [...claimed].sort((a, b) => a.id - b.id)) {
    const lane = byLane[(row.subscriber_id ?? row.id) % count]!;
    const ids = lane.get(row.company_id) ?? [];
    ids.push(row.id);
    lane.set(row.company_id, ids);
  }
  return byLane
    .map((companies) =>
      [...companies].flatMap(([companyId, ids]) => {
        const chunks: FlowChunk[] = [];
        for (let from = 0; from < ids.length; from += perTransaction) {
          chunks.push({ companyId, ids: ids.slice(from, from + perTransaction) });
        }
        return chunks;
      }),
    )
    .filter((chunks) => chunks.length > 0);
}
