import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { roleAtLeast } from '../../schemas/roles.js';
import { HomeDashboardView } from '../../views/home/HomeDashboardView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { useDashboardActor } from '../use-dashboard-actor.js';
import { homeDashboardLogic, recommendationFollowLogic } from '../wiring/home-dashboard.js';

/**
 * The body of /dashboard and /marketing-analytics (Recommendations; DashboardScreen loads it): the home
 * dashboard over the header's locations and the session's date range; a recommendation's saved segment opens
 * in the segment list.
 */
export default function HomeDashboardScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const navigation = useNavigationActor();
  const { actor, rangeProps } = useDashboardActor(homeDashboardLogic);
  const follow = useAppActor(recommendationFollowLogic);

  useEffect(() => {
    const subscription = follow.on('segment.saved', ({ id }) =>
      navigation.send({ type: 'route.navigate', path: `/segments?segment=${id}` }),
    );
    return () => subscription.unsubscribe();
  }, [follow, navigation]);

  return (
    <HomeDashboardView
      actor={actor}
      follow={follow}
      canCreate={roleAtLeast(role, 'marketer')}
      timeZone={timeZone}
      {...rangeProps}
    />
  );
}
