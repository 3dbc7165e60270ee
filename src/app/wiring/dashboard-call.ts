import type { z } from 'zod';
import type { DashboardRequest, NoExtra } from '../../machines/kit/dashboard-machine.js';
import { apiRequest, type ApiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** A call's query parameters, as `apiRequest` takes them. */
type Query = NonNullable<ApiRequest<z.ZodTypeAny>['query']>;

/** The query every dashboard call takes: the range, the comparison and the header's locations. */
export function dashboardQuery<Extra>({ filter, range, compare }: DashboardRequest<Extra>): Query {
  return {
    from_date: range.from,
    to_date: range.to,
    compare: compare ? 'previous' : undefined,
    location_id: filter.location_id,
    location_group_id: filter.location_group_id,
  };
}

/**
 * A dashboard's figures call: `GET path` with the dashboard's query and, from the dashboard's own filters,
 * `extraQuery`'s parameters; answered as `schema` parses it.
 */
export function dashboardCall<Schema extends z.ZodTypeAny, Extra = NoExtra>(
  path: string,
  schema: Schema,
  extraQuery?: (extra: Extra) => Query,
) {
  return apiCall((request: DashboardRequest<Extra>) =>
    apiRequest({
      method: 'GET',
      path,
      query: { ...dashboardQuery(request), ...extraQuery?.(request.extra) },
      schema,
    }),
  );
}
