import type { EditorCatalogue } from '../../machines/template-editor.machine.js';
import { SOCIAL_NETWORKS } from '../../schemas/email-templates.js';

/** The texts the blocks are labelled and filled with, in the user's language. */
export interface BlockTexts {
  categories: { layout: string; content: string; restaurant: string };
  labels: {
    oneColumn: string;
    twoColumns: string;
    threeColumns: string;
    text: string;
    image: string;
    button: string;
    divider: string;
    spacer: string;
    social: string;
    offer: string;
  };
  /** A menu item's block label and a location's ("Menu: {{name}}"). */
  menuItemLabel: (name: string) => string;
  locationLabel: (name: string) => string;
  sample: {
    text: string;
    heading: string;
    button: string;
    imageAlt: string;
    offerHeadline: string;
    offerCode: string;
    offerExpiry: string;
    hours: string;
  };
  /** A price in the company's currency, in the user's language. */
  price: (amount: number) => string;
}

/** One block of the editor's panel: its id, label, category and MJML. */
export interface EmailBlock {
  id: string;
  label: string;
  category: string;
  content: string;
}

/** Text for MJML: the characters that would start markup or a merge tag are written as entities. */
export function escapeMjml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll('{', '&#123;');
}

const column = (inner: string) => `<mj-column>${inner}</mj-column>`;
const section = (inner: string, attributes = '') => `<mj-section${attributes}>${inner}</mj-section>`;

/**
 * The editor's blocks, all email-safe MJML (docs/templates.md): sections of one to three columns; text, image,
 * button, divider, spacer and social links (icons served by the installation at `origin`); and the restaurant
 * blocks: a card per menu item (name and price), a card per location (name, address, a line for the hours) and
 * an offer (headline, code, expiry). Images point at the installation, so the design loads nothing else.
 */
export function emailBlocks(texts: BlockTexts, catalogue: EditorCatalogue, origin: string): EmailBlock[] {
  const { categories, labels, sample } = texts;
  const text = (value: string) =>
    `<mj-text font-size="16px" line-height="1.5">${escapeMjml(value)}</mj-text>`;
  const icon = (network: string) => `${origin}/email-images/placeholders/${network}.png`;
  const layout: EmailBlock[] = [
    { id: 'section-1', label: labels.oneColumn, content: section(column(text(sample.text))) },
    { id: 'section-2', label: labels.twoColumns, content: section(column(text(sample.text)).repeat(2)) },
    { id: 'section-3', label: labels.threeColumns, content: section(column(text(sample.text)).repeat(3)) },
  ].map((block) => ({ ...block, category: categories.layout }));
  const content: EmailBlock[] = [
    { id: 'text', label: labels.text, content: text(sample.text) },
    {
      id: 'image',
      label: labels.image,
      content: `<mj-image src="${origin}/email-images/placeholders/dish.png" alt="${escapeMjml(sample.imageAlt)}"></mj-image>`,
    },
    {
      id: 'button',
      label: labels.button,
      // In a section of its own: GrapesJS 0.22's sorter would not take a dragged mj-button into a column
      // (docs/templates.md); the button's link is set in the settings panel.
      content: section(
        column(
          `<mj-button background-color="#8a5a2b" color="#ffffff" href="{{view_in_browser_url}}">${escapeMjml(sample.button)}</mj-button>`,
        ),
      ),
    },
    {
      id: 'divider',
      label: labels.divider,
      content: '<mj-divider border-color="#d6d0c4" border-width="1px"></mj-divider>',
    },
    { id: 'spacer', label: labels.spacer, content: '<mj-spacer height="24px"></mj-spacer>' },
    {
      id: 'social',
      label: labels.social,
      content: `<mj-social icon-size="24px" mode="horizontal">${SOCIAL_NETWORKS.map(
        (network) =>
          `<mj-social-element name="${network}" href="https://${network}.com/" src="${icon(network)}"></mj-social-element>`,
      ).join('')}</mj-social>`,
    },
  ].map((block) => ({ ...block, category: categories.content }));
  const card = ' background-color="#faf7f2" padding="16px"';
  const restaurant: EmailBlock[] = [
    {
      id: 'offer',
      label: labels.offer,
      content: section(
        column(
          `<mj-text align="center" font-size="22px" font-weight="bold">${escapeMjml(sample.offerHeadline)}</mj-text>` +
            `<mj-text align="center" font-size="20px" letter-spacing="2px" color="#8a5a2b">${escapeMjml(sample.offerCode)}</mj-text>` +
            `<mj-text align="center" font-size="13px" color="#6b6257">${escapeMjml(sample.offerExpiry)}</mj-text>`,
        ),
        card,
      ),
    },
    ...catalogue.menuItems.map((item) => ({
      id: `menu-item-${item.id}`,
      label: texts.menuItemLabel(item.name),
      content: section(
        column(
          `<mj-text font-size="18px" font-weight="bold">${escapeMjml(item.name)}</mj-text>` +
            `<mj-text font-size="16px" color="#8a5a2b">${escapeMjml(texts.price(item.price))}</mj-text>`,
        ),
        card,
      ),
    })),
    ...catalogue.locations.map((location) => ({
      id: `location-${location.id}`,
      label: texts.locationLabel(location.name),
      content: section(
        column(
          `<mj-text font-size="18px" font-weight="bold">${escapeMjml(location.name)}</mj-text>` +
            `<mj-text font-size="15px">${escapeMjml(location.address)}</mj-text>` +
            `<mj-text font-size="15px" color="#6b6257">${escapeMjml(sample.hours)}</mj-text>`,
        ),
        card,
      ),
    })),
  ].map((block) => ({ ...block, category: categories.restaurant }));
  return [...layout, ...content, ...restaurant];
}
