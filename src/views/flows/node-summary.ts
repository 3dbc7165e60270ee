import type { TFunction } from 'i18next';
import type { EditorChoice, EditorChoices } from '../../machines/campaign-update-mode.machine.js';
import type { FlowGraphItem } from '../../schemas/flows.js';

/** The name of a picked list, segment, location or template, or "(deleted)" when it is no longer offered. */
function nameIn(t: TFunction, choices: readonly EditorChoice[], id: number | null): string {
  return choices.find((choice) => choice.id === id)?.name ?? t('flows.summary.unknown');
}

/** A node's type in the user's language ("Send an email", "Wait"). */
export function nodeTypeName(t: TFunction, item: Pick<FlowGraphItem, 'settings'>): string {
  return t(`flows.types.${item.settings.type}`);
}

/**
 * What a node does, in one line of the user's language: "Wait 2 days", "Send ‘Welcome’", "Visited since
 * entering?". Pure (the names come from the pickers' choices), so the canvas and its tests agree.
 */
export function nodeSummary(
  t: TFunction,
  item: FlowGraphItem,
  choices: EditorChoices,
  formatMoney: (cents: number) => string,
): string {
  const s = item.settings;
  switch (s.type) {
    case 'joined_list':
    case 'add_to_list':
    case 'remove_from_list':
      return t(`flows.summary.${s.type}`, { name: nameIn(t, choices.lists, s.list_id) });
    case 'entered_segment':
      return t('flows.summary.entered_segment', { name: nameIn(t, choices.segments, s.segment_id) });
    case 'visit_at_location':
      return t('flows.summary.visit_at_location', { name: nameIn(t, choices.locations, s.location_id) });
    case 'nth_visit':
      return t('flows.summary.nth_visit', { count: s.visit_number });
    case 'no_visit_for':
      return t('flows.summary.no_visit_for', { count: s.days });
    case 'birthday':
      return s.days_before === 0
        ? t('flows.summary.birthdayOnDay')
        : t('flows.summary.birthday', { count: s.days_before });
    case 'spend_passes':
      return t('flows.summary.spend_passes', { amount: formatMoney(s.amount_cents) });
    case 'new_subscriber':
    case 'first_visit':
    case 'first_visit_anniversary':
    case 'exit':
      return t(`flows.summary.${s.type}`);
    case 'send_email':
      return s.template_id === null
        ? t('flows.summary.noTemplate')
        : t('flows.summary.send_email', { name: nameIn(t, choices.templates, s.template_id) });
    case 'update_field':
      return t('flows.summary.update_field', {
        field: t(`flows.subscriberFields.${s.field}`),
        value: s.value,
      });
    case 'notify_staff':
      return t('flows.summary.notify_staff', { emails: s.emails.join(', ') });
    case 'webhook':
      return t('flows.summary.webhook', { host: hostOf(s.url) });
    case 'condition':
      return s.rule.condition === 'in_segment'
        ? t('flows.summary.in_segment', { name: nameIn(t, choices.segments, s.rule.segment_id) })
        : t(`flows.summary.${s.rule.condition}`);
    case 'wait':
      return t('flows.summary.wait', {
        amount: s.amount,
        unit: t(`flows.units.${s.amount === 1 ? s.unit.slice(0, -1) : s.unit}`),
      });
    case 'wait_until':
      return t('flows.summary.wait_until', { weekday: t(`flows.weekdays.${s.weekday}`), time: s.time });
  }
}

/** The host a webhook posts to (the URL itself when it does not parse yet). */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
