// MQTT uplinks: JSON messages on `devices/<imei>/up` (MQTT_TOPIC). Subscribed with QoS 1 under a
// fixed client id and a persistent session; the PUBACK goes out only after the message is
// committed, so the broker redelivers whatever we had not stored when we stopped.
import os from 'node:os';
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import { decodeUplink } from '@wt/protocols';
import type { AppDeps } from '../deps.js';

/** The device identity the topic carries: the segment matched by the first `+` of the filter. */
export function topicIdentity(filter: string, topic: string): string | undefined {
  const f = filter.split('/');
  const t = topic.split('/');
  const i = f.indexOf('+');
  return i >= 0 && i < t.length ? t[i] : undefined;
}

export async function startMqtt(deps: AppDeps, url: string): Promise<{ close(): Promise<void>; client: MqttClient }> {
  const { config, log, ingest } = deps;
  const filter = config.MQTT_TOPIC;
  const client = mqtt.connect(url, {
    clientId: config.MQTT_CLIENT_ID ?? `wt-gateway-${os.hostname()}`,
    clean: false,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });

  // Overriding handleMessage is how mqtt.js defers the PUBACK of a QoS 1 message to our callback.
  client.handleMessage = (packet: IPublishPacket, done: (err?: Error) => void) => {
    const remote = `mqtt:${packet.topic}`;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload as string);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      ingest.malformed({ transport: 'mqtt', remote }, payload, 'not JSON');
      done(); // acknowledged: redelivering garbage would not make it readable
      return;
    }
    // The simple device JSON may leave the IMEI to the topic.
    const id = topicIdentity(filter, packet.topic);
    if (json && typeof json === 'object' && !Array.isArray(json) && id) {
      const o = json as Record<string, unknown>;
      if (!('imei' in o) && !('deviceInfo' in o) && !('tags' in o) && !('tagId' in o)) o.imei = id;
    }
    const r = decodeUplink(json);
    if (!r.ok) {
      ingest.malformed({ transport: 'mqtt', remote }, payload, r.error + (r.issues ? `: ${r.issues.join('; ')}` : ''));
      done();
      return;
    }
    ingest.ingest(r.messages, { transport: 'mqtt', remote, mode: 'short' }).then(
      () => done(),
      (err: Error) => done(err), // no PUBACK: the broker sends it again
    );
  };

  client.on('connect', () => {
    client.subscribe(filter, { qos: 1 }, (err) => {
      if (err) log.error({ err, filter }, 'MQTT subscribe failed');
      else log.info({ url: url.replace(/\/\/[^@]*@/, '//***@'), filter }, 'MQTT uplinks subscribed');
    });
  });
  client.on('error', (err) => log.warn({ err }, 'MQTT error'));
  return {
    client,
    close: () => new Promise<void>((r) => client.end(false, {}, () => r())),
  };
}
