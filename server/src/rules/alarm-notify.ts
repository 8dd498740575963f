// Telling alarm contacts: e-mail through the platform's mailer (SMTP, or the outbox in demo), SMS
// through a provider chosen by SMS_PROVIDER. Providers are an interface so a vendor's SMS gateway
// plugs in without touching the engine.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Mailer } from '../lib/mailer.js';

export interface SmsProvider {
  readonly name: string;
  send(phone: string, text: string): Promise<void>;
}

/** Writes each SMS to the log: the default, so an installation without a gateway still shows what would be sent. */
export function loggingSmsProvider(log: Logger): SmsProvider {
  return {
    name: 'log',
    async send(phone, text) {
      log.info({ phone, text }, 'alarm SMS (logging provider)');
    },
  };
}

/** POSTs {phone, text} as JSON to an HTTP SMS gateway. */
export function httpSmsProvider(url: string): SmsProvider {
  return {
    name: 'http',
    async send(phone, text) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone, text }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
    },
  };
}

export function smsProviderFor(config: Config, log: Logger): SmsProvider {
  if (config.SMS_PROVIDER === 'http' && config.SMS_HTTP_URL) return httpSmsProvider(config.SMS_HTTP_URL);
  return loggingSmsProvider(log);
}

export interface ContactNotice {
  phone: string;
  email: string;
  sms: boolean;
  mail: boolean;
  subject: string;
  text: string;
}

export class ContactNotifier {
  constructor(
    private readonly mailer: Mailer,
    private readonly sms: SmsProvider,
    private readonly log: Logger,
  ) {}

  /** Sends every notice; one contact's failure is logged and does not stop the others. */
  async notify(notices: ContactNotice[]): Promise<void> {
    await Promise.all(
      notices.flatMap((n) => [
        n.mail && n.email
          ? this.mailer.send({ to: n.email, subject: n.subject, text: n.text }).catch((err) => this.log.warn({ err, to: n.email }, 'alarm mail failed'))
          : null,
        n.sms && n.phone
          ? this.sms.send(n.phone, n.text).catch((err) => this.log.warn({ err, phone: n.phone }, 'alarm SMS failed'))
          : null,
      ]),
    );
  }
}
