// SMS providers, chosen by SMS_PROVIDER: `log` (the default: the text goes to the log, nothing is
// sent), `http` (a JSON POST of {phone, text} to a gateway of one's own), `aliyun` (Alibaba Cloud
// SMS, the common Chinese SMS API: a signed SendSms request with a template whose one variable
// carries the text) and `smpp` (an SMPP 3.4 session to a carrier or aggregator, smpp-provider.ts).
// The HTTP ones go through lib/outbound.ts: a gateway on an internal network needs OUTBOUND_ALLOW.
import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { httpFailure, type Outbound } from '../../lib/outbound.js';
import { SmppProvider } from './smpp-provider.js';

/** A delivery report of the provider for a text it accepted. */
export interface SmsReport {
  ref: string;
  delivered: boolean;
  /** The provider's state word (DELIVRD, UNDELIV, EXPIRED, REJECTD …). */
  stat: string;
}

export interface SmsProvider {
  readonly name: string;
  /** Hands a text over; `awaitsReport` when a delivery report will follow for `ref`. Throws SmsError. */
  send(phone: string, text: string): Promise<{ ref?: string; awaitsReport: boolean }>;
  onReport?(listener: (r: SmsReport) => void): void;
  close?(): Promise<void>;
}

/** A refusal of the provider; `final` when trying again cannot help (a number it does not take). */
export class SmsError extends Error {
  constructor(
    message: string,
    readonly final = false,
  ) {
    super(message);
  }
}

/** Writes each SMS to the log: the default, so an installation without a gateway still shows what would be sent. */
export function loggingSmsProvider(log: Logger): SmsProvider {
  return {
    name: 'log',
    async send(phone, text) {
      log.info({ phone, text }, 'alarm SMS (logging provider)');
      return { awaitsReport: false };
    },
  };
}

/** POSTs {phone, text} as JSON to an HTTP SMS gateway; a 2xx answer is a delivery. */
export function httpSmsProvider(url: string, outbound: Outbound): SmsProvider {
  return {
    name: 'http',
    async send(phone, text) {
      const res = await outbound.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone, text }),
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new SmsError(`SMS gateway answered ${httpFailure(res.status)}`, res.status >= 400 && res.status < 500 && res.status !== 429);
      return { awaitsReport: false };
    },
  };
}

/** RFC 3986 encoding as the Alibaba Cloud RPC signature wants it. */
function popEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Signature version 1.0 of Alibaba Cloud RPC APIs: HMAC-SHA1 over the sorted, encoded query. */
export function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${popEncode(k)}=${popEncode(params[k]!)}`)
    .join('&');
  const toSign = `${method}&${popEncode('/')}&${popEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
}

export interface AliyunOptions {
  endpoint: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  /** The template's variable that carries the text. */
  templateParam: string;
}

/** Codes of SendSms after which trying again cannot help. */
const ALIYUN_FINAL = new Set(['isv.MOBILE_NUMBER_ILLEGAL', 'isv.MOBILE_COUNT_OVER_LIMIT', 'isv.SMS_SIGNATURE_ILLEGAL', 'isv.SMS_TEMPLATE_ILLEGAL', 'isv.INVALID_PARAMETERS']);

/** Alibaba Cloud SMS (dysmsapi SendSms, version 2017-05-25). */
export function aliyunSmsProvider(o: AliyunOptions, outbound: Outbound): SmsProvider {
  return {
    name: 'aliyun',
    async send(phone, text) {
      const params: Record<string, string> = {
        AccessKeyId: o.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: phone,
        RegionId: 'cn-hangzhou',
        SignName: o.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: o.templateCode,
        TemplateParam: JSON.stringify({ [o.templateParam]: text }),
        Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      const query = new URLSearchParams({ ...params, Signature: aliyunSignature('GET', params, o.accessKeySecret) });
      const res = await outbound.fetch(`${o.endpoint.replace(/\/?$/, '/')}?${query}`, { signal: AbortSignal.timeout(10_000) });
      const body = (await res.json().catch(() => ({}))) as { Code?: string; Message?: string; BizId?: string };
      if (body.Code === 'OK') return { ref: body.BizId, awaitsReport: false };
      throw new SmsError(`Aliyun SMS: ${body.Code ?? res.status} ${body.Message ?? ''}`.trim(), ALIYUN_FINAL.has(String(body.Code)));
    },
  };
}

/** The provider that will carry texts: an `http` or `smpp` provider without its address falls back to `log`. */
export function smsProviderName(config: Config): Config['SMS_PROVIDER'] {
  if (config.SMS_PROVIDER === 'http' && !config.SMS_HTTP_URL) return 'log';
  if (config.SMS_PROVIDER === 'smpp' && !config.SMPP_URL) return 'log';
  return config.SMS_PROVIDER;
}

/** Whether texts really go out; with the logging provider they are recorded "logged, not sent" and never charged. */
export const smsSends = (config: Config) => smsProviderName(config) !== 'log';

export function smsProviderFor(config: Config, log: Logger, outbound: Outbound): SmsProvider {
  switch (smsProviderName(config)) {
    case 'http':
      if (config.SMS_HTTP_URL) return httpSmsProvider(config.SMS_HTTP_URL, outbound);
      break;
    case 'aliyun':
      return aliyunSmsProvider(
        {
          endpoint: config.SMS_ALIYUN_ENDPOINT,
          accessKeyId: config.SMS_ALIYUN_ACCESS_KEY_ID ?? '',
          accessKeySecret: config.SMS_ALIYUN_ACCESS_KEY_SECRET ?? '',
          signName: config.SMS_ALIYUN_SIGN_NAME ?? '',
          templateCode: config.SMS_ALIYUN_TEMPLATE_CODE ?? '',
          templateParam: config.SMS_ALIYUN_TEMPLATE_PARAM,
        },
        outbound,
      );
    case 'smpp':
      if (config.SMPP_URL) {
        return new SmppProvider({
          url: config.SMPP_URL,
          systemId: config.SMPP_SYSTEM_ID ?? '',
          password: config.SMPP_PASSWORD ?? '',
          sourceAddr: config.SMPP_SOURCE_ADDR,
          throughput: config.SMPP_THROUGHPUT,
          log,
        });
      }
      break;
    default:
      break;
  }
  return loggingSmsProvider(log);
}

/** Segments a carrier bills for a text: 160 (153 when split) GSM characters, or 70 (67) UCS-2 ones. */
export function smsSegments(text: string): number {
  const ascii = /^[\x20-\x7e\n\r]*$/.test(text);
  const n = [...text].length;
  const [one, part] = ascii ? [160, 153] : [70, 67];
  return n <= one ? 1 : Math.ceil(n / part);
}
