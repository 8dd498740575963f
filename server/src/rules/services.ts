// The alarm engine and the durable outboxes' workers (partner push, notices, escalation, scheduled
// reports) as background services of the worker role.
import type { AppDeps } from '../deps.js';
import { ReportMailWorker } from '../modules/report/schedule.js';
import type { Service } from '../services.js';
import { PushWorker } from '../modules/push/outbox.js';
import { AlarmEngine, ensureAlarmTypes } from './alarm-engine.js';
import { NoticeWorker } from '../modules/sms/notices.js';
import { EscalationWorker } from '../modules/escalation/engine.js';
import { smsProviderFor } from '../modules/sms/providers.js';

/** The engine of each running platform, for calls that act on it (threshold cache) and for tests. */
export const alarmEngines = new WeakMap<object, AlarmEngine>();

export const alarmEngineService: Service = {
  name: 'alarm-engine',
  roles: ['worker'],
  async start(deps) {
    const engine = new AlarmEngine(deps);
    await engine.start();
    alarmEngines.set(deps, engine);
    return () => engine.stop();
  },
  async stop() {},
};

/** Every process seeds the alarm types, so the API answers with them even without a worker. */
export const alarmTypesService: Service = {
  name: 'alarm-types',
  roles: ['api', 'gateway', 'worker'],
  async start(deps) {
    await ensureAlarmTypes(deps);
  },
  async stop() {},
};

/**
 * A durable outbox's worker as a service of the worker role: started with the platform, stopped
 * with it, and kept in `registry` (per platform) for tests that wake it.
 */
function outboxWorkerService<W extends { start(): void; stop(): Promise<void> }>(name: string, make: (deps: AppDeps) => W, registry?: WeakMap<object, W>): Service {
  return {
    name,
    roles: ['worker'],
    async start(deps) {
      const worker = make(deps);
      worker.start();
      registry?.set(deps, worker);
      return () => worker.stop();
    },
    async stop() {},
  };
}

/** The notice worker of each running platform, for tests. */
export const noticeWorkers = new WeakMap<object, NoticeWorker>();
/** The escalation worker of each running platform, for tests. */
export const escalationWorkers = new WeakMap<object, EscalationWorker>();
/** The scheduled-report worker of each running platform, for tests. */
export const reportMailWorkers = new WeakMap<object, ReportMailWorker>();

/** Partner pushes of alarms. */
export const pushWorkerService = outboxWorkerService('push-worker', (deps) => new PushWorker(deps));
/** Alarm contacts' SMS and e-mails: the notice outbox's worker with the configured SMS provider. */
export const noticeWorkerService = outboxWorkerService('notice-worker', (deps) => new NoticeWorker(deps, smsProviderFor(deps.config, deps.log, deps.outbound)), noticeWorkers);
/** Due escalation steps of unacknowledged alarms. */
export const escalationWorkerService = outboxWorkerService('escalation-worker', (deps) => new EscalationWorker(deps), escalationWorkers);
/** Scheduled reports mailed when their period ends (modules/report/schedule.ts). */
export const reportMailService = outboxWorkerService('report-mail', (deps) => new ReportMailWorker(deps), reportMailWorkers);
