import { firstValueFrom, fromEvent, takeUntil, type Observable } from 'rxjs';
import { fromPromise } from 'xstate';

/** The call's single answer; stopping the actor (its signal aborts) unsubscribes, which aborts the request. */
export function answerOf<T>(call: Observable<T>, signal: AbortSignal): Promise<T> {
  return firstValueFrom(call.pipe(takeUntil(fromEvent(signal, 'abort'))));
}

/**
 * An actor that makes one API call from its input and answers the call's single answer; stopping the
 * actor aborts the request. `call` builds the request: `apiCall((id: number) => apiRequest({ … }))`.
 */
export function apiCall<Output, Input = void>(call: (input: Input) => Observable<Output>) {
  return fromPromise<Output, Input>(({ input, signal }) => answerOf(call(input), signal));
}
