import { describe, expect, it } from 'vitest';
import { ChannelBuffer } from '../../../../src/adapters/realtime/channel-buffer.js';

const ev = (n: number) => ({ id: `e${n}`, data: n });

describe('ChannelBuffer: the last N events of a channel, for resume', () => {
  it('returns the events after a buffered id (none after the newest)', () => {
    const b = new ChannelBuffer(5);
    for (let i = 1; i <= 4; i++) b.append(ev(i));
    expect(b.after('e2')).toEqual([ev(3), ev(4)]);
    expect(b.after('e4')).toEqual([]);
  });

  it('keeps only the newest `capacity` events: an evicted or unknown id is a gap (undefined)', () => {
    const b = new ChannelBuffer(3);
    for (let i = 1; i <= 7; i++) b.append(ev(i));
    expect(b.all().map((e) => e.id)).toEqual(['e5', 'e6', 'e7']);
    expect(b.after('e4')).toBeUndefined();
    expect(b.after('nope')).toBeUndefined();
    expect(b.after('e5')).toEqual([ev(6), ev(7)]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new ChannelBuffer(0)).toThrow();
  });
});
