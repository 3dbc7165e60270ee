import ELK from 'elkjs/lib/elk.bundled.js';
import { catchError, concatMap, forkJoin, map, of, type Observable } from 'rxjs';
import { fromPromise } from 'xstate';
import {
  flowBuilderMachine,
  type FlowBuilderLoad,
  type SaveFlowRequest,
} from '../../machines/flow-builder.machine.js';
import {
  FlowNodeCountsResultSchema,
  FlowSchema,
  FlowSequenceSchema,
  type FlowGraphItem,
} from '../../schemas/flows.js';
import { apiRequest } from '../../services/api-client.js';
import { flowElkGraph, positionsFromElk } from '../../visualiser/flow-layout.js';
import type { ElkNodeLike } from '../../visualiser/layout.js';
import { answerOf, apiCall } from './answer.js';
import { editorChoices } from './campaigns.js';
import { createFlow, FLOWS, getFlow } from './flows.js';

/** The flow (a new draft made first when there is none), the pickers, and the node counts when served. */
function loadFlow({
  flowId,
  newName,
}: {
  flowId: number | null;
  newName: string;
}): Observable<FlowBuilderLoad> {
  const flow = flowId === null ? createFlow({ name: newName }) : getFlow(flowId);
  return flow.pipe(
    concatMap((loaded) =>
      forkJoin({
        flow: of(loaded),
        choices: editorChoices(),
        // Counts come with the engine; until it answers (404) the canvas shows none and no error.
        counts: apiRequest({
          method: 'GET',
          path: `${FLOWS}${loaded.id}/node-counts/`,
          schema: FlowNodeCountsResultSchema,
        }).pipe(
          map((result) => result.counts),
          catchError(() => of(null)),
        ),
      }),
    ),
  );
}

/** `PUT /campaigns/flows/{id}/`; an overwrite first reads the stored revision, so this save wins. */
function saveFlow({ id, body, overwrite }: SaveFlowRequest) {
  const put = (revision: number | undefined) =>
    apiRequest({
      method: 'PUT',
      path: `${FLOWS}${id}/`,
      body: revision === undefined ? body : { ...body, revision },
      schema: FlowSchema,
    });
  if (!overwrite) return put(undefined);
  return apiRequest({ method: 'GET', path: `${FLOWS}sequence/${id}/`, schema: FlowSequenceSchema }).pipe(
    concatMap((sequence) => put(sequence.revision)),
  );
}

// One ELK instance for the page: creating it sets up its worker-less engine, which is not free.
let elk: InstanceType<typeof ELK> | null = null;

/** The nodes laid out top to bottom by ELK. */
function layOut(items: FlowGraphItem[]) {
  elk ??= new ELK();
  return elk
    .layout(flowElkGraph(items) as Parameters<InstanceType<typeof ELK>['layout']>[0])
    .then((graph) => positionsFromElk(graph as ElkNodeLike));
}

/** The flow builder with the flows calls, the editor's pickers and the ELK layout. */
export const flowBuilderLogic = flowBuilderMachine.provide({
  actors: {
    loadFlow: fromPromise<FlowBuilderLoad, { flowId: number | null; newName: string }>(({ input, signal }) =>
      answerOf(loadFlow(input), signal),
    ),
    saveFlow: apiCall(saveFlow),
    layOutGraph: fromPromise<Record<string, { x: number; y: number }>, { items: FlowGraphItem[] }>(
      ({ input }) => layOut(input.items),
    ),
  },
});
