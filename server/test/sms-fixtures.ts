// An in-process SMSC speaking SMPP 3.4 (the `smpp` package's server), for the SMPP provider's tests:
// it checks the bind, answers submits with message ids, sends delivery receipts, can refuse
// submits as throttled, and records when each submit arrived.
import smpp from 'smpp';

export interface SmscOptions {
  systemId?: string;
  password?: string;
  /** Answer this many submits with ESME_RTHROTTLED first. */
  throttle?: number;
  /** The receipt's stat for a destination (default DELIVRD). */
  stat?: (destination: string) => string;
}

export interface Submitted {
  destination: string;
  text: string;
  at: number;
  id: string;
}

export async function startSmsc(opts: SmscOptions = {}) {
  const submits: Submitted[] = [];
  let binds = 0;
  let throttle = opts.throttle ?? 0;
  let next = 1;
  const server = smpp.createServer((session) => {
    session.on('bind_transceiver', (pdu: smpp.PDU) => {
      if (pdu.system_id !== (opts.systemId ?? 'wt') || pdu.password !== (opts.password ?? 'secret')) {
        session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }));
        session.close();
        return;
      }
      binds++;
      session.send(pdu.response());
    });
    session.on('enquire_link', (pdu: smpp.PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: smpp.PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('error', () => undefined);
    session.on('submit_sm', (pdu: smpp.PDU) => {
      if (throttle > 0) {
        throttle--;
        session.send(pdu.response({ command_status: smpp.ESME_RTHROTTLED }));
        return;
      }
      const id = `M${next++}`;
      const raw = pdu.short_message ?? pdu.message_payload;
      const text = typeof raw === 'object' && raw && 'message' in raw ? String(raw.message) : String(raw ?? '');
      const destination = String(pdu.destination_addr);
      submits.push({ destination, text, at: Date.now(), id });
      session.send(pdu.response({ message_id: id }));
      if (pdu.registered_delivery) {
        const stat = opts.stat?.(destination) ?? 'DELIVRD';
        setTimeout(() => {
          session.deliver_sm({
            source_addr: destination,
            destination_addr: 'WearTrack',
            esm_class: 0x04,
            short_message: `id:${id} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:2601011200 done date:2601011200 stat:${stat} err:000 text:`,
          });
        }, 20);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `smpp://127.0.0.1:${port}`,
    submits,
    get binds() {
      return binds;
    },
    throttleNext(n: number) {
      throttle = n;
    },
    /** Drops every open connection, as a carrier's restart would. */
    dropAll() {
      for (const s of [...server.sessions]) s.destroy();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of [...server.sessions]) s.destroy();
        server.close(() => r());
      }),
  };
}

export async function until<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
