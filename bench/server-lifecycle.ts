/**
 * Shared by both bench servers: announces `READY <port>` on stdout (what the runner waits
 * for) and closes the server on SIGTERM/SIGINT before exiting.
 */
export function serveUntilSignal(port: number, close: () => Promise<void>): void {
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdout.write(`READY ${port}\n`);
}
