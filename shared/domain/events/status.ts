/** Every status an event can have, in the order of its life (the contract's event status enum). */
export const EVENT_STATUSES = ['upcoming', 'live', 'completed', 'postponed', 'cancelled'] as const;

export type EventStatus = (typeof EVENT_STATUSES)[number];
