// Commands a device never answers: after COMMAND_REPLY_TIMEOUT_SECONDS a sent command is marked
// failed (error noReply) so that the history does not show it on the wire for ever. A reply that
// still comes later turns it into answered (the batch writer matches failed-for-no-reply commands too).
import type { Service } from '../../services.js';
import { failUnanswered } from './delivery.js';

export const commandTimeoutService: Service = {
  name: 'command-timeouts',
  roles: ['worker'],
  async start(deps) {
    const timeout = deps.config.COMMAND_REPLY_TIMEOUT_SECONDS;
    if (timeout <= 0) return;
    const every = Math.min(60_000, Math.max(1000, (timeout * 1000) / 4));
    let running: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      running = failUnanswered(deps).catch((err) => deps.log.error({ err }, 'marking unanswered commands failed did not work'));
    }, every);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  },
  async stop() {},
};
