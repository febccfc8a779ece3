import net from "node:net";

/** Pipes `client` and `upstream` into each other, each kept in `sockets` while open; an error on one ends both. */
export function relay(client: net.Socket, upstream: net.Socket, sockets: Set<net.Socket>) {
  for (const socket of [client, upstream]) {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {
      client.destroy();
      upstream.destroy();
    });
  }
  client.pipe(upstream).pipe(client);
}

/**
 * A TCP proxy on a local port in front of `target`, which a test can cut (every connection dropped, new ones
 * refused) and restore on the same port: a database or service going away and coming back, without touching it.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = net.createServer((client) => relay(client, net.connect(target.port, target.host), sockets));
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    port,
    /** Drops every connection and refuses new ones. */
    cut: stop,
    /** Accepts connections again on the same port. */
    restore: async () => void (await listen(port)),
    close: stop,
  };
}
