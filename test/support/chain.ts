import hre from "hardhat";

/** An in-process Hardhat chain behind a JSON-RPC server on a random local port. */
export async function startTestChain() {
  const server = await hre.network.createServer("default", "127.0.0.1", 0);
  const { address, port } = await server.listen();
  return { rpcUrl: `http://${address}:${port}`, close: () => server.close() };
}
