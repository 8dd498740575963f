// The part of the `smpp` package (no types of its own) the SMS provider and its tests use.
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer } from 'node:net';

  export interface PDU {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: any;
    response(fields?: Record<string, unknown>): PDU;
    isResponse(): boolean;
  }

  export class Session extends EventEmitter {
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    socket: import('node:net').Socket;
    [command: string]: any;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function connect(options: { url?: string; host?: string; port?: number; auto_enquire_link_period?: number }, listener?: () => void): Session;
  export function createServer(listener: (session: Session) => void): Server;
  export const ESME_ROK: number;
  export const ESME_RTHROTTLED: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RSUBMITFAIL: number;
  export const ESME_RINVDSTADR: number;
}
