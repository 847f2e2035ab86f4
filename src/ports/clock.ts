/** The current time; injected so tests can move it. */
export interface Clock {
  /** Now. */
  now(): Date;
}
