/** The schedule arithmetic moved to src/schemas/campaign-schedule.ts (the browser's preview uses it too); re-exported for the server's older imports. */
export * from '../../src/schemas/campaign-schedule.js';
