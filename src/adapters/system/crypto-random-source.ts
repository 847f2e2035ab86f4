import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';

/** Randomness from Node's CSPRNG. */
export const cryptoRandomSource: RandomSource = {
  uuid: () => randomUUID(),
  bytes: (size) => new Uint8Array(randomBytes(size)),
  int: (max) => randomInt(max),
};
