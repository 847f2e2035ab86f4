/** The longest channel name a client may name, over SSE or WebSocket. */
export const MAX_CHANNEL_LENGTH = 512;

/** The longest event id a client may resume from (`Last-Event-ID`, `lastEventId`). */
export const MAX_EVENT_ID_LENGTH = 200;
