import { useSelector } from '@xstate/react';
import { useEffect, useLayoutEffect } from 'react';
import { roleAtLeast } from '../../schemas/roles.js';
import { BasketAnalyticsView } from '../../views/basket/BasketAnalyticsView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { useDashboardActor } from '../use-dashboard-actor.js';
import { basketAnalyticsLogic, basketSegmentLogic } from '../wiring/basket-analytics.js';

/**
 * /basket-analytics: the basket dashboard over the header's locations and the dashboards' shared range; each
 * answer is handed to the "guests who ordered X" card's machine, and a segment, once saved, opens in the segment
 * list.
 */
export default function BasketAnalyticsScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const navigation = useNavigationActor();
  const { actor, rangeProps } = useDashboardActor(basketAnalyticsLogic);
  const segments = useAppActor(basketSegmentLogic);
  const basket = useSelector(actor, (state) => state.context.figures);

  // Each answer tells the "guests who ordered X" card what to count: its range, locations, day part and items
  // (before the screen is painted, so the card never shows the last answer's count under this one's).
  useLayoutEffect(() => {
    if (!basket) return;
    segments.send({
      type: 'figures.loaded',
      query: {
        from: basket.range.from,
        to: basket.range.to,
        locationIds: basket.segment.location_ids,
        dayPart: basket.day_part,
      },
      itemIds: basket.items.map((item) => item.menu_item_id),
    });
  }, [basket, segments]);

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
      timeZone={timeZone}
      {...rangeProps}
    />
  );
}
