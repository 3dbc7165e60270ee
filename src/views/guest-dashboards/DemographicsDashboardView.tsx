import { SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { demographicsDashboardMachine } from '../../machines/demographics-dashboard.machine.js';
import type { PeopleShare } from '../../schemas/demographics-dashboard.js';
import { ChartCard } from '../kit/ChartCard.js';
import { DashboardFrame, type DashboardRangeProps } from '../kit/DashboardFrame.js';
import { useDashboardState } from '../kit/dashboard-state.js';
import { KpiCard } from '../kit/KpiCard.js';

/** The demographics dashboard's actor, as the view sees it. */
export type DemographicsDashboardActor = ActorRefFrom<typeof demographicsDashboardMachine>;

const AREA = 'demographicsDashboard';
const KINDS = ['guests_subscribed', 'guests_only', 'subscribers_only'] as const;
const DISTANCES = ['same_zip', 'elsewhere', 'unknown'] as const;

/** The share (0–100) of the range's guests who are on the list, or null without guests. */
function subscribedShare(share: PeopleShare | null | undefined): number | null {
  if (!share) return null;
  const guests = share.guests_subscribed + share.guests_only;
  return guests === 0 ? null : (share.guests_subscribed / guests) * 100;
}

/**
 * /demographics: the range's people at the picked locations (guests who came, subscribers who joined) by age
 * band, home zip code, same zip as the location or not, and kind; each chart says why it is empty ("no
 * birthdays on file") and how many people it could not place.
 */
export function DemographicsDashboardView({
  actor,
  ...range
}: { actor: DemographicsDashboardActor } & DashboardRangeProps) {
  const { t } = useTranslation();
  const { figures, busy, empty } = useDashboardState(actor);
  const nobody = empty ? t(`${AREA}.empty`) : null;
  const people = figures?.share.people ?? 0;
  const bands = figures?.age_bands ?? [];
  const zips = figures?.zips ?? [];
  const withBirthday = people - (figures?.no_birthday ?? 0);
  const withZip = people - (figures?.no_zip ?? 0);
  const zipRows = [
    ...zips.map((zip) => ({ zip: zip.zip, people: zip.people, share: zip.share * 100 })),
    ...(figures && figures.other_zips > 0
      ? [
          {
            zip: t(`${AREA}.zips.other`),
            people: figures.other_zips,
            share: withZip === 0 ? 0 : (figures.other_zips / withZip) * 100,
          },
        ]
      : []),
  ];
  const part = (count: number) => (people === 0 ? 0 : (count / people) * 100);

  return (
    <DashboardFrame actor={actor} title={t(`${AREA}.title`)} intro={t(`${AREA}.intro`)} {...range}>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <KpiCard
          label={t(`${AREA}.kpi.people`)}
          value={figures?.share.people ?? null}
          previous={figures?.previous_share?.people ?? null}
          format="count"
          loading={busy}
        />
        <KpiCard
          label={t(`${AREA}.kpi.subscribedShare`)}
          value={subscribedShare(figures?.share)}
          previous={subscribedShare(figures?.previous_share)}
          format="percent"
          loading={busy}
        />
        <KpiCard
          label={t(`${AREA}.kpi.subscribersOnly`)}
          value={figures?.share.subscribers_only ?? null}
          previous={figures?.previous_share?.subscribers_only ?? null}
          format="count"
          loading={busy}
        />
        <KpiCard
          label={t(`${AREA}.kpi.noBirthday`)}
          value={figures?.no_birthday ?? null}
          format="count"
          loading={busy}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ChartCard
          title={t(`${AREA}.ages.title`)}
          description={t(`${AREA}.ages.description`, {
            missing: figures?.no_birthday ?? 0,
            people,
          })}
          loading={busy}
          emptyReason={nobody ?? (figures && withBirthday === 0 ? t(`${AREA}.ages.empty`) : null)}
          csvName="age-bands"
          chart={{
            type: 'bar',
            height: 260,
            ariaLabel: t(`${AREA}.ages.title`),
            series: [{ name: t(`${AREA}.people`), data: bands.map((row) => row.people) }],
            options: { xaxis: { categories: bands.map((row) => t(`${AREA}.ages.band.${row.band}`)) } },
          }}
          table={{
            caption: t(`${AREA}.ages.title`),
            columns: [
              { key: 'band', label: t(`${AREA}.ages.column`) },
              { key: 'people', label: t(`${AREA}.people`), format: 'count' },
            ],
            rows: bands.map((row) => ({ band: t(`${AREA}.ages.band.${row.band}`), people: row.people })),
          }}
        />
        <ChartCard
          title={t(`${AREA}.zips.title`)}
          description={t(`${AREA}.zips.description`, { missing: figures?.no_zip ?? 0, people })}
          loading={busy}
          emptyReason={nobody ?? (figures && withZip === 0 ? t(`${AREA}.zips.empty`) : null)}
          csvName="home-zip-codes"
          chart={{
            type: 'bar',
            height: 300,
            ariaLabel: t(`${AREA}.zips.title`),
            series: [{ name: t(`${AREA}.people`), data: zipRows.map((row) => row.people) }],
            options: {
              plotOptions: { bar: { horizontal: true } },
              xaxis: { categories: zipRows.map((row) => row.zip) },
            },
          }}
          table={{
            caption: t(`${AREA}.zips.title`),
            columns: [
              { key: 'zip', label: t(`${AREA}.zips.column`) },
              { key: 'people', label: t(`${AREA}.people`), format: 'count' },
              { key: 'share', label: t(`${AREA}.share`), format: 'percent' },
            ],
            rows: zipRows,
          }}
        />
        <ChartCard
          title={t(`${AREA}.distance.title`)}
          description={t(`${AREA}.distance.description`)}
          loading={busy}
          emptyReason={nobody}
          csvName="distance-to-location"
          chart={{
            type: 'donut',
            height: 260,
            ariaLabel: t(`${AREA}.distance.title`),
            series: DISTANCES.map((key) => figures?.distance[key] ?? 0),
            options: { labels: DISTANCES.map((key) => t(`${AREA}.distance.${key}`)) },
          }}
          table={{
            caption: t(`${AREA}.distance.title`),
            columns: [
              { key: 'where', label: t(`${AREA}.distance.column`) },
              { key: 'people', label: t(`${AREA}.people`), format: 'count' },
              { key: 'share', label: t(`${AREA}.share`), format: 'percent' },
            ],
            rows: figures
              ? DISTANCES.map((key) => ({
                  where: t(`${AREA}.distance.${key}`),
                  people: figures.distance[key],
                  share: part(figures.distance[key]),
                }))
              : [],
          }}
        />
        <ChartCard
          title={t(`${AREA}.kinds.title`)}
          description={t(`${AREA}.kinds.description`)}
          loading={busy}
          emptyReason={nobody}
          csvName="subscribers-and-guests"
          chart={{
            type: 'donut',
            height: 260,
            ariaLabel: t(`${AREA}.kinds.title`),
            series: KINDS.map((key) => figures?.share[key] ?? 0),
            options: { labels: KINDS.map((key) => t(`${AREA}.kinds.${key}`)) },
          }}
          table={{
            caption: t(`${AREA}.kinds.title`),
            columns: [
              { key: 'kind', label: t(`${AREA}.kinds.column`) },
              { key: 'people', label: t(`${AREA}.people`), format: 'count' },
              { key: 'share', label: t(`${AREA}.share`), format: 'percent' },
            ],
            rows: figures
              ? KINDS.map((key) => ({
                  kind: t(`${AREA}.kinds.${key}`),
                  people: figures.share[key],
                  share: part(figures.share[key]),
                }))
              : [],
          }}
        />
      </SimpleGrid>
    </DashboardFrame>
  );
}
