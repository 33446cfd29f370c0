// Raw bytes on one connection to an in-process sandbox: for requests no HTTP client will send (an
// absolute-form target, two Host headers, a request line of another version).
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Listens on a free port if not yet listening, sends `request` (a Buffer for bytes that UTF-8 would
 * not give, such as a lone 0xA0), and collects everything written back until the server closes.
 */
export async function rawExchange(
  app: FastifyInstance,
  request: string | Buffer,
): Promise<{ text: string; error?: Error }> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', (error) => resolve({ text, error }));
    socket.on('close', () => resolve({ text }));
    socket.setTimeout(5000, () => socket.destroy(new Error('timed out')));
  });
}

export const statusLine = (text: string) => text.split('\r\n')[0];
export const jsonBody = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
