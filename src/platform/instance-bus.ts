import { randomUUID } from "node:crypto";

/**
 * Messages between the instances of the service: a message published on a topic reaches that topic's subscribers on
 * every instance. What is said on it today: sessions to forget (the users module's session cache, issue 11); GraphQL
 * subscription events are meant to follow (issue 14).
 *
 * `publish` resolves once every instance has handled the message: this one's subscribers at once, the others' as
 * they acknowledge it (each after its subscribers ran), up to ACK_TIMEOUT_MS. So what a request changed and announced
 * holds on every instance by the time its answer leaves.
 *
 * The carrier is PostgreSQL's LISTEN/NOTIFY on the service's own database (`DatabaseHandle.busCarrier`); a Redis
 * pub/sub carrier can take its place behind `BusCarrier`. A carrier loses what is sent while its connection is down:
 * the bus is not `live` then, and every subscriber is told (`interrupted`) the moment it stops being live, so that
 * what it keeps on the strength of messages (a cache) is dropped rather than trusted.
 */
export interface InstanceBus {
  /** Every message published from now on, on any instance, will reach this one. */
  readonly live: boolean;
  /** Rejects when the carrier could not take the message (this instance's subscribers have it all the same). */
  publish(topic: string, body: string): Promise<void>;
  /** Returns the unsubscribe. */
  subscribe(topic: string, subscriber: BusSubscriber): () => void;
  close(): Promise<void>;
}

export interface BusSubscriber {
  message(body: string): void;
  /** Messages may be lost from now until the bus is live again. */
  interrupted(): void;
}

/** What carries payloads between instances. Each instance receives every payload sent, its own included. */
export interface BusCarrier {
  /**
   * Starts delivering; `live(false)` when delivery stops (connection lost), `live(true)` once every payload sent from
   * then on will arrive. Resolves after the first attempt, live or not: the carrier keeps trying on its own.
   */
  open(deliver: (payload: string) => void, live: (live: boolean) => void): Promise<void>;
  /** Resolves once the carrier took the payload; a carrier that delivers in-process has delivered it by then. */
  send(payload: string): Promise<void>;
  /** How many other instances receive what is sent now, and must acknowledge it; 0 when `send` delivers in-process. */
  peers(): Promise<number>;
  close(): Promise<void>;
}

/** How long `publish` waits for the other instances' acknowledgements (one that died without closing never sends it). */
const ACK_TIMEOUT_MS = 1000;
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; the framing travels in it too. */
const MAX_PAYLOAD_BYTES = 7999;

/**
 * Payloads, lines: `m`, origin, message id (`-`: no acknowledgement wanted), topic, body; or `a`, the acknowledging
 * instance, the publishing instance, the message id.
 */
export async function openInstanceBus(carrier: BusCarrier): Promise<InstanceBus> {
  const origin = randomUUID();
  const subscribers = new Map<string, Set<BusSubscriber>>();
  const awaitingAcks = new Map<string, { missing: number; done: () => void }>();
  let nextId = 1;
  let live = false;

  const deliver = (topic: string, body: string) => subscribers.get(topic)?.forEach((subscriber) => subscriber.message(body));
  const received = (payload: string) => {
    const [kind, from, third, fourth] = payload.split("\n", 4);
    // This instance's subscribers had its messages at publish time.
    if (from === origin || fourth === undefined) return;
    if (kind === "m") {
      const [id, topic] = [third, fourth];
      deliver(topic, payload.slice(kind.length + from.length + id.length + topic.length + 4));
      if (id !== "-") carrier.send(`a\n${origin}\n${from}\n${id}`).catch(() => undefined);
    } else if (kind === "a" && third === origin) {
      const waiting = awaitingAcks.get(fourth);
      if (waiting && --waiting.missing <= 0) waiting.done();
    }
  };
  const liveness = (now: boolean) => {
    const wasLive = live;
    live = now;
    if (wasLive && !now) subscribers.forEach((set) => set.forEach((subscriber) => subscriber.interrupted()));
  };
  await carrier.open(received, liveness);

  return {
    get live() {
      return live;
    },
    async publish(topic, body) {
      if (topic.includes("\n")) throw new Error(`a bus topic is one line: ${JSON.stringify(topic)}`);
      deliver(topic, body);
      // Counted before sending: an instance that starts listening later reads afresh what this message is about.
      const peers = await carrier.peers();
      const id = peers > 0 ? String(nextId++) : "-";
      const payload = `m\n${origin}\n${id}\n${topic}\n${body}`;
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error(`bus message on ${topic} too long (${Buffer.byteLength(payload)} bytes)`);
      if (peers === 0) return carrier.send(payload);
      let timer: NodeJS.Timeout | undefined;
      const acknowledged = new Promise<void>((resolve) => {
        awaitingAcks.set(id, { missing: peers, done: resolve });
        timer = setTimeout(resolve, ACK_TIMEOUT_MS);
      });
      try {
        await carrier.send(payload);
        await acknowledged;
      } finally {
        clearTimeout(timer);
        awaitingAcks.delete(id);
      }
    },
    subscribe(topic, subscriber) {
      const set = subscribers.get(topic) ?? new Set();
      subscribers.set(topic, set.add(subscriber));
      return () => void set.delete(subscriber);
    },
    close: () => carrier.close(),
  };
}
