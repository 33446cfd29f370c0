// A second process that asks GET <url> (the sandbox's /health, or a channel's retrieve with the key
// given as a second argument) one request after the other until its standard input closes, then
// prints the latencies (ms, send to end of body) as JSON. Run apart from the load, so that the
// load's own event loop never delays a check it times.
const url = process.argv[2]!;
const key = process.argv[3];
const headers: Record<string, string> = key ? { 'x-service-api-key': key } : {};
const latencies: number[] = [];
const failures: string[] = [];
let stopping = false;
process.stdin.on('end', () => (stopping = true)).resume();

while (!stopping) {
  const started = performance.now();
  try {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) failures.push(String(response.status));
  } catch (error) {
    failures.push((error as Error).message);
  }
  latencies.push(performance.now() - started);
  // A pause between checks, as a monitor leaves one: the figure is the wait, not the poller's rate.
  await new Promise((resolve) => setTimeout(resolve, 5));
}
process.stdout.write(JSON.stringify({ latencies, failures }));
