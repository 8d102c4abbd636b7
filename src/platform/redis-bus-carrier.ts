import type { BusCarrier } from "./instance-bus.js";

/**
 * Redis pub/sub as the instance bus's carrier (`REDIS_URL`, contract §16): the instances' messages leave PostgreSQL's
 * single NOTIFY queue, whose every payload goes through one lock and is held until the slowest listener reads it.
 *
 * One connection subscribes (a subscribed Redis connection can do nothing else), another publishes. ioredis reconnects
 * on its own; the carrier is live only from the moment the subscription is confirmed on the current connection, and
 * says it is not the moment that connection drops, so messages missed in between are known to be missed.
 *
 * ioredis is loaded here, when REDIS_URL is set: an instance whose bus is PostgreSQL's never loads it.
 */
export async function redisCarrier(url: string, channel: string): Promise<BusCarrier> {
  const { Redis } = await import("ioredis");
  const options = { lazyConnect: true, maxRetriesPerRequest: 2, connectionName: channel, autoResubscribe: false };
  const subscriber = new Redis(url, options);
  const publisher = new Redis(url, options);
  // Errors surface as the connection's close (not live) and as rejected publishes; ioredis keeps retrying.
  subscriber.on("error", () => undefined);
  publisher.on("error", () => undefined);
  let closed = false;

  return {
    async open(deliver, live) {
      subscriber.on("message", (from: string, payload: string) => {
        if (from === channel) deliver(payload);
      });
      subscriber.on("close", () => live(false));
      subscriber.on("ready", () => {
        subscriber.subscribe(channel).then(
          () => live(true),
          () => subscriber.disconnect(true),
        );
      });
      await Promise.all([subscriber.connect(), publisher.connect()]).catch(() => undefined);
    },
    async send(payload) {
      if (closed) throw new Error("the Redis carrier is closed");
      await publisher.publish(channel, payload);
    },
    async peers() {
      const [, subscribers] = (await publisher.pubsub("NUMSUB", channel)) as [string, number];
      // Its own subscription is counted too.
      return Math.max(0, Number(subscribers) - 1);
    },
    async close() {
      closed = true;
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
