// Console-wide realtime notices for pages: "refresh your data" (type 56, or after a reconnection
// that may have missed changes), and commands' new states.
import type { CommandLive } from '@wt/contract';

const target = new EventTarget();

export function onRefresh(fn: () => void): () => void {
  target.addEventListener('refresh', fn);
  return () => target.removeEventListener('refresh', fn);
}

export function emitRefresh(): void {
  target.dispatchEvent(new Event('refresh'));
}

/** Commands' new states as the realtime socket tells them (pages showing command states listen). */
export function onCommands(fn: (commands: CommandLive[]) => void): () => void {
  const h = (e: Event) => fn((e as CustomEvent<CommandLive[]>).detail);
  target.addEventListener('commands', h);
  return () => target.removeEventListener('commands', h);
}

export function emitCommands(commands: CommandLive[]): void {
  target.dispatchEvent(new CustomEvent('commands', { detail: commands }));
}
