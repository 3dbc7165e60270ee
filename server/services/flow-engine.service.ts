import type { CompanyId, Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { FlowNodeCountsResult, SubscriberFlowPaths } from '../../src/schemas/flows.js';
import {
  flowExists,
  flowNodeCounts,
  subscriberExists,
  subscriberFlowPaths,
} from '../repositories/flow-figures.repository.js';

/** The flow engine's read side (docs/flows.md, "Figures"): counts on the canvas, paths on a profile. */
export function flowEngineService(db: Database) {
  return {
    /** Per-node counts of a flow; 404 for another company's. */
    async nodeCounts(companyId: CompanyId, flowId: number): Promise<FlowNodeCountsResult> {
      return db.tenant(companyId, async (sql) => {
        if (!(await flowExists(sql, companyId, flowId))) throw notFound('flow');
        return { flow_id: flowId, counts: await flowNodeCounts(sql, companyId, flowId) };
      });
    },

    /** A subscriber's way through each flow; 404 for another company's. */
    async subscriberFlows(companyId: CompanyId, subscriberId: number): Promise<SubscriberFlowPaths> {
      return db.tenant(companyId, async (sql) => {
        if (!(await subscriberExists(sql, companyId, subscriberId))) throw notFound('subscriber');
        return { results: await subscriberFlowPaths(sql, companyId, subscriberId) };
      });
    },
  };
}

/** The flow engine's read calls. */
export type FlowEngineService = ReturnType<typeof flowEngineService>;
