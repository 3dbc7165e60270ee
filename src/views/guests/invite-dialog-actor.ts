import type { GuestsToInviteActor } from './GuestsToInvitePanel.js';
import type { InviteForm } from '../../machines/guests-to-invite.machine.js';
import type { GuestFileRow } from '../../machines/support/csv-rows.js';
import type { ListActor, ListSnapshot } from '../kit/list-actor.js';

type InviteSnapshot = ReturnType<GuestsToInviteActor['getSnapshot']>;

/** The invite machine's dialog as the kit's dialogs read a list machine: adding is the kit's "creating". */
function dialogSnapshotOf(snapshot: InviteSnapshot): ListSnapshot<GuestFileRow, InviteForm> {
  const { context } = snapshot;
  const open = !snapshot.matches({ adding: 'closed' });
  return {
    context: {
      page: 1,
      pageSize: null,
      search: '',
      ordering: null,
      filters: {},
      items: null,
      total: 0,
      selected: context.guest,
      form: context.form,
      fieldErrors: context.fieldErrors,
      problem: context.addProblem,
      notice: null,
      created: null,
      exporting: false,
      refreshPending: false,
    },
    matches: (value) => (value === 'creating' ? open : value === 'listing' ? !open : false),
    // Only the save makes the dialog busy, not the count or the export beside it.
    hasTag: () => snapshot.matches({ adding: 'saving' }),
  };
}

/**
 * The "add as subscriber" dialog of the invite machine as a kit dialog actor (`ListActor`), so it opens in
 * the kit's FormDialog with the kit's field props: its snapshot reads the machine's dialog state, and it
 * passes on the dialog's commands (the POS id is the guest's own and never changes).
 */
export function inviteDialogActor(actor: GuestsToInviteActor): ListActor<GuestFileRow, InviteForm> {
  // The same machine snapshot gives the same view of it, as React's store subscriptions expect.
  let last: { source: InviteSnapshot; view: ListSnapshot<GuestFileRow, InviteForm> } | null = null;
  return {
    sessionId: actor.sessionId,
    subscribe: actor.subscribe.bind(actor) as ListActor<GuestFileRow, InviteForm>['subscribe'],
    getSnapshot() {
      const source = actor.getSnapshot();
      if (last?.source !== source) last = { source, view: dialogSnapshotOf(source) };
      return last.view;
    },
    send(command) {
      if (command.type === 'dialog.submit' || command.type === 'dialog.close') actor.send(command);
      else if (command.type === 'field.change' && command.field !== 'pos_id') {
        actor.send(command);
      }
    },
  };
}
