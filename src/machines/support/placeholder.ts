import { fromPromise, type NonReducibleUnknown } from 'xstate';

/**
 * A typed stand-in for an actor that reaches the outside world (an API call, storage, the clock). Machines
 * declare one per call; `src/app/wiring/*` provides the real one with `machine.provide({ actors })`, and
 * tests and replay provide stubs the same way. Running it unprovided is a wiring mistake, so it throws.
 */
export function placeholder<Output, Input = NonReducibleUnknown>() {
  return fromPromise<Output, Input>(() => {
    throw new Error('provided by src/app');
  });
}
