import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { roleAtLeast } from '../../schemas/roles.js';
import { BasketAnalyticsView } from '../../views/basket/BasketAnalyticsView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { useDashboardActor } from '../use-dashboard-actor.js';
import { basketAnalyticsLogic, basketSegmentLogic } from '../wiring/basket-analytics.js';

/**
 * /basket-analytics: the basket dashboard over the header's locations and the dashboards' shared range; a
 * "guests who ordered X" segment, once saved, opens in the segment list.
 */
export default function BasketAnalyticsScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const navigation = useNavigationActor();
  const { actor, rangeProps } = useDashboardActor(basketAnalyticsLogic);
  const segments = useAppActor(basketSegmentLogic);

  useEffect(() => {
    const subscription = segments.on('segment.saved', ({ id }) =>
      navigation.send({ type: 'route.navigate', path: `/segments?segment=${id}` }),
    );
    return () => subscription.unsubscribe();
  }, [segments, navigation]);

  return (
    <BasketAnalyticsView
      actor={actor}
      segments={segments}
      canSave={roleAtLeast(role, 'marketer')}
      {...rangeProps}
    />
  );
}
