// A bare watch gateway for load runs: frames, decodes with the protocols' decoder and replies.
// Prints its port on stdout so the bench can connect.
import net from 'node:net';
import { WatchFramer, decodeWatchFrame } from '@wt/protocols';

let frames = 0;
const server = net.createServer((s) => {
  const framer = new WatchFramer();
  s.on('error', () => {});
  s.on('data', (d) => {
    for (const f of framer.push(d).frames) {
      frames++;
      const r = decodeWatchFrame(f);
      if (r.reply) s.write(r.reply);
    }
  });
});
server.maxConnections = 100_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(String((server.address() as net.AddressInfo).port));
});
setInterval(() => process.stderr.write(`server frames ${frames}\n`), 10_000).unref();
