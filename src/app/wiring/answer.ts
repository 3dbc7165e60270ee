import { firstValueFrom, fromEvent, takeUntil, type Observable } from 'rxjs';

/** The call's single answer; stopping the actor (its signal aborts) unsubscribes, which aborts the request. */
export function answerOf<T>(call: Observable<T>, signal: AbortSignal): Promise<T> {
  return firstValueFrom(call.pipe(takeUntil(fromEvent(signal, 'abort'))));
}
