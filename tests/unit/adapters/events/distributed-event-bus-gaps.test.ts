import { describe, expect, it } from 'vitest';
import type { BroadcastTransport, TransportState } from '../../../../src/adapters/events/broadcast-transport.js';
import { DistributedEventBus } from '../../../../src/adapters/events/distributed-event-bus.js';
import { encodeMessage } from '../../../../src/adapters/events/event-codec.js';
import type { BusGap } from '../../../../src/ports/event-bus.js';

/** A transport driven by the test: it hands on the texts it is given and says up or down when told. */
class ScriptedTransport implements BroadcastTransport {
  readonly name = 'scripted';
  readonly sent: string[] = [];
  receive: (text: string) => void = () => undefined;
  changed: (up: boolean) => void = () => undefined;
  async start(receive: (text: string) => void, changed: (up: boolean) => void): Promise<void> {
    this.receive = receive;
    this.changed = changed;
    changed(true);
  }
  async send(text: string): Promise<void> {
    this.sent.push(text);
  }
  state(): TransportState {
    return { up: true };
  }
  async close(): Promise<void> {}
}

const topic = (seq: number, payload: unknown, origin = 'other') => encodeMessage({ origin, seq, kind: 'topic', topic: 't', payload });

async function bus(): Promise<{ transport: ScriptedTransport; bus: DistributedEventBus; gaps: BusGap[]; got: unknown[]; notices: string[] }> {
  const transport = new ScriptedTransport();
  const notices: string[] = [];
  const b = new DistributedEventBus(transport, () => undefined, (_fields, message) => void notices.push(message));
  const gaps: BusGap[] = [];
  const got: unknown[] = [];
  b.onGap((gap) => void gaps.push(gap));
  b.subscribe('t', (payload) => void got.push(payload));
  await b.start();
  return { transport, bus: b, gaps, got, notices };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('DistributedEventBus: nothing missed silently', () => {
  it('numbers what it sends from 1, per process', async () => {
    const { transport, bus: b } = await bus();
    await b.publish('t', 'a');
    await b.publish('t', 'b');
    await settled();
    expect(transport.sent.map((text) => (JSON.parse(text) as { seq: number }).seq)).toEqual([1, 2]);
  });

  it("a hole in another process's sequence is a gap (after the messages before it), a repeated message is dropped", async () => {
    const { transport, gaps, got, notices } = await bus();
    transport.receive(topic(1, 'one'));
    transport.receive(topic(2, 'two'));
    transport.receive(topic(2, 'two again'));
    transport.receive(topic(5, 'five'));
    transport.receive(topic(1, 'another process', 'third'));
    await settled();
    expect(got).toEqual(['one', 'two', 'five', 'another process']);
    expect(gaps).toEqual([{ ongoing: false, reason: expect.stringMatching(/lost on the way/) }]);
    expect(notices).toEqual([expect.stringMatching(/lost on the way/)]);
  });

  it('the listener going down opens a gap and coming back closes it, once each however often the transport says so', async () => {
    const { transport, gaps, notices } = await bus();
    expect(gaps).toEqual([]);
    transport.changed(false);
    transport.changed(false);
    transport.changed(true);
    transport.changed(true);
    expect(gaps).toEqual([
      { ongoing: true, reason: 'the event bus connection is down' },
      { ongoing: false, reason: expect.stringMatching(/reconnected/) },
    ]);
    expect(notices).toHaveLength(2);
  });
});
