import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useLocation, useParams } from 'react-router';
import type { ProfileRoute } from '../../machines/customer-profile.machine.js';
import { ProfileView } from '../../views/profile/ProfileView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { useAppActor } from '../actors.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { customerProfileLogic } from '../wiring/customer-profile.js';

/**
 * The profile the route's parameters name, or null: /{guest|subscriber}/profile/{posId or '-'}/{hashid}/{id}.
 */
function profileRouteOf(
  kind: ProfileRoute['kind'],
  params: Readonly<Partial<Record<'posId' | 'hashid' | 'id', string>>>,
): ProfileRoute | null {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) return null;
  // '-' stands for "no POS id" (a path needs a segment).
  return { kind, id, hashid: params.hashid ?? '', pos_id: params.posId === '-' ? '' : (params.posId ?? '') };
}

/** One profile's actor; a new path (another person) makes a new one. */
function ProfilePanel({ route }: { route: ProfileRoute }) {
  const navigation = useNavigationActor();
  const auth = useAuthActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const role = useSelector(auth, (state) => state.context.user?.role);
  const actor = useAppActor(customerProfileLogic, { input: route });
  useEffect(() => {
    const subscription = actor.on('route.open', (event) =>
      navigation.send({ type: 'route.navigate', path: event.path }),
    );
    return () => subscription.unsubscribe();
  }, [actor, navigation]);
  return <ProfileView actor={actor} canDelete={roleAtLeast(role, 'admin')} timeZone={timeZone} />;
}

/** /guest/profile/… and /subscriber/profile/…: the same screen, loading the kind stored in local storage. */
export default function CustomerProfileScreen() {
  const path = useLocation().pathname;
  const route = profileRouteOf(path.startsWith('/subscriber/') ? 'subscriber' : 'guest', useParams());
  if (!route) return null;
  return <ProfilePanel key={path} route={route} />;
}
