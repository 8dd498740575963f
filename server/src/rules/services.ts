// The alarm engine and the partner push worker as background services of the worker role.
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

export const pushWorkerService: Service = {
  name: 'push-worker',
  roles: ['worker'],
  async start(deps) {
    const worker = new PushWorker(deps);
    worker.start();
    return () => worker.stop();
  },
  async stop() {},
};

/** Alarm contacts' SMS and e-mails: the notice outbox's worker with the configured SMS provider. */
export const noticeWorkerService: Service = {
  name: 'notice-worker',
  roles: ['worker'],
  async start(deps) {
    const worker = new NoticeWorker(deps, smsProviderFor(deps.config, deps.log, deps.outbound));
    worker.start();
    noticeWorkers.set(deps, worker);
    return () => worker.stop();
  },
  async stop() {},
};

/** The notice worker of each running platform, for tests. */
export const noticeWorkers = new WeakMap<object, NoticeWorker>();

/** Due escalation steps of unacknowledged alarms. */
export const escalationWorkerService: Service = {
  name: 'escalation-worker',
  roles: ['worker'],
  async start(deps) {
    const worker = new EscalationWorker(deps);
    worker.start();
    escalationWorkers.set(deps, worker);
    return () => worker.stop();
  },
  async stop() {},
};

/** The escalation worker of each running platform, for tests. */
export const escalationWorkers = new WeakMap<object, EscalationWorker>();

/** Scheduled reports mailed when their period ends (modules/report/schedule.ts). */
export const reportMailService: Service = {
  name: 'report-mail',
  roles: ['worker'],
  async start(deps) {
    const worker = new ReportMailWorker(deps);
    worker.start();
    reportMailWorkers.set(deps, worker);
    return () => worker.stop();
  },
  async stop() {},
};

/** The scheduled-report worker of each running platform, for tests. */
export const reportMailWorkers = new WeakMap<object, ReportMailWorker>();
