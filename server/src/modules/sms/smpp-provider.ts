// The package has no types of its own; the declaration is referenced so every project compiling this file sees it.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./smpp.d.ts" />
// SMPP 3.4 client: one transceiver session to the carrier's or aggregator's SMSC, bound at start and
// bound again after a lost connection (1, 2, 4 … s, capped at 30 s), enquire_link to keep it open,
// submits spaced to the contracted throughput, and delivery receipts (deliver_sm with the receipt
// flag) matched to the submits by message id.
import smpp from 'smpp';
import type { Logger } from 'pino';
import { SmsError, type SmsProvider, type SmsReport } from './providers.js';

export interface SmppOptions {
  url: string;
  systemId: string;
  password: string;
  /** Sender address (a short code or alphanumeric name). */
  sourceAddr: string;
  /** Submits per second at most. */
  throughput: number;
  enquireLinkMs?: number;
  /** How long a submit waits for a bound session and for its answer. */
  timeoutMs?: number;
  log: Logger;
}

/** receipt text of SMPP 3.4 appendix B: "id:IIII sub:SSS dlvrd:DDD submit date:… done date:… stat:DELIVRD err:E text:…" */
export function parseReceipt(text: string): { id: string; stat: string } | null {
  const id = /\bid:(\S+)/i.exec(text)?.[1];
  const stat = /\bstat:(\S+)/i.exec(text)?.[1];
  return id && stat ? { id, stat: stat.toUpperCase() } : null;
}

const ESM_RECEIPT = 0x04;

export class SmppProvider implements SmsProvider {
  readonly name = 'smpp';
  private session: smpp.Session | undefined;
  private bound = false;
  private closed = false;
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private reconnects = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private nextSlot = 0;
  private listeners: ((r: SmsReport) => void)[] = [];
  /** Times the session was bound (the first bind and every re-bind). */
  binds = 0;

  constructor(private readonly opts: SmppOptions) {
    this.connect();
  }

  private connect(): void {
    if (this.closed) return;
    const s = smpp.connect({ url: this.opts.url, auto_enquire_link_period: this.opts.enquireLinkMs ?? 30_000 });
    this.session = s;
    s.on('connect', () => {
      s.bind_transceiver({ system_id: this.opts.systemId, password: this.opts.password }, (pdu: smpp.PDU) => {
        if (pdu.command_status !== 0) {
          this.opts.log.warn({ status: pdu.command_status }, 'SMPP bind refused');
          s.close();
          return;
        }
        this.bound = true;
        this.binds++;
        this.reconnects = 0;
        for (const w of this.waiters.splice(0)) w.resolve();
      });
    });
    s.on('deliver_sm', (pdu: smpp.PDU) => {
      s.send(pdu.response());
      if (!(Number(pdu.esm_class) & ESM_RECEIPT)) return;
      const text = typeof pdu.short_message === 'object' && pdu.short_message?.message !== undefined ? String(pdu.short_message.message) : String(pdu.short_message ?? '');
      const r = parseReceipt(text);
      const id = pdu.receipted_message_id ? String(pdu.receipted_message_id) : r?.id;
      if (!id || !r) return;
      for (const l of this.listeners) l({ ref: id, delivered: r.stat === 'DELIVRD', stat: r.stat });
    });
    s.on('enquire_link', (pdu: smpp.PDU) => s.send(pdu.response()));
    s.on('unbind', (pdu: smpp.PDU) => {
      s.send(pdu.response());
      s.close();
    });
    s.on('error', (err: Error) => this.opts.log.warn({ err: err.message }, 'SMPP connection error'));
    s.on('close', () => {
      this.bound = false;
      if (this.session !== s || this.closed) return;
      const delay = Math.min(30_000, 1000 * 2 ** this.reconnects++);
      this.opts.log.warn({ delay }, 'SMPP connection lost, binding again');
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
      this.reconnectTimer.unref();
    });
  }

  private ready(): Promise<void> {
    if (this.bound) return Promise.resolve();
    if (this.closed) return Promise.reject(new SmsError('SMPP provider closed'));
    return new Promise((resolve, reject) => {
      const w = { resolve: () => (clearTimeout(t), resolve()), reject };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new SmsError('SMPP session not bound'));
      }, this.opts.timeoutMs ?? 10_000);
      this.waiters.push(w);
    });
  }

  /** Waits for this submit's turn under the throughput limit. */
  private async slot(): Promise<void> {
    const gap = 1000 / Math.max(1, this.opts.throughput);
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + gap;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }

  async send(phone: string, text: string): Promise<{ ref?: string; awaitsReport: boolean }> {
    await this.ready();
    await this.slot();
    const s = this.session!;
    // One segment goes in short_message; a longer text in message_payload, which the SMSC splits.
    const single = text.length <= (/^[\x20-\x7e\n\r]*$/.test(text) ? 160 : 70);
    const pdu = await new Promise<smpp.PDU>((resolve, reject) => {
      const t = setTimeout(() => reject(new SmsError('SMPP submit timed out')), this.opts.timeoutMs ?? 10_000);
      const ok = s.submit_sm(
        {
          source_addr: this.opts.sourceAddr,
          destination_addr: phone.replace(/^\+/, ''),
          registered_delivery: 1,
          ...(single ? { short_message: text } : { message_payload: text }),
        },
        (resp: smpp.PDU) => {
          clearTimeout(t);
          resolve(resp);
        },
      );
      if (!ok) {
        clearTimeout(t);
        reject(new SmsError('SMPP connection not writable'));
      }
    });
    if (pdu.command_status === 0) return { ref: String(pdu.message_id), awaitsReport: true };
    // A throttled or failed submit is tried again later; an address the SMSC refuses never will be.
    const final = pdu.command_status === smpp.ESME_RINVDSTADR;
    throw new SmsError(`SMPP submit refused (status 0x${pdu.command_status.toString(16)})`, final);
  }

  onReport(listener: (r: SmsReport) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    for (const w of this.waiters.splice(0)) w.reject(new SmsError('SMPP provider closed'));
    const s = this.session;
    if (!s) return;
    await new Promise<void>((resolve) => {
      if (!this.bound) {
        s.destroy();
        resolve();
        return;
      }
      const t = setTimeout(() => s.destroy(() => resolve()), 2000);
      s.unbind(() => s.close(() => (clearTimeout(t), resolve())));
    });
  }
}
