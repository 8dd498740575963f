// Background services started after the HTTP server, by role (ROLES=api,gateway,worker): device
// listeners, the pipeline, rule engines, jobs. Each area appends its own.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './deps.js';
import { commandTimeoutService } from './modules/command/timeouts.js';
import { fenceService } from './modules/fence/engine.js';
import { gatewayService, simulatorService } from './gateway/service.js';
import { oplogRetentionService } from './modules/oplog/service.js';
import { attendanceService } from './modules/account-fence/attendance/job.js';
import { indoorService } from './modules/indoor/service.js';
import { weatherService } from './modules/message/weather.js';
import { alarmEngineService, alarmTypesService, noticeWorkerService, pushWorkerService, escalationWorkerService, reportMailService } from './rules/services.js';
import { partitionService } from './db/partitions.js';
import { locationService } from './modules/location/watch.js';
import { separationService } from './modules/master-slave/watch.js';

export interface Service {
  name: string;
  roles: ('api' | 'gateway' | 'worker')[];
  /** May return the function that stops what this start began (so one process can run several platforms). */
  start(deps: AppDeps, app: FastifyInstance, opts: { demo: boolean }): Promise<void | (() => Promise<void>)>;
  stop(): Promise<void>;
}

// The alarm services start first so that they listen before the gateway's first device event.
export const SERVICES: Service[] = [fenceService, alarmTypesService, alarmEngineService, pushWorkerService, noticeWorkerService, escalationWorkerService, reportMailService, weatherService, commandTimeoutService, oplogRetentionService, attendanceService, indoorService, locationService, separationService, gatewayService, simulatorService, partitionService];
