import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** A real S3-compatible server on loopback (s3rver; it checks no signatures), with one bucket. */
export class S3Stand {
  private constructor(
    private readonly server: S3rver,
    readonly endpoint: string,
    readonly bucket: string,
    private readonly dir: string,
  ) {}

  static async start(bucket = 'portico-test'): Promise<S3Stand> {
    const dir = mkdtempSync(join(tmpdir(), 'portico-s3-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
    const address = (await server.run()) as { address: string; port: number };
    return new S3Stand(server, `http://127.0.0.1:${address.port}`, bucket, dir);
  }

  /** What the S3 storage adapter needs (s3rver takes any credentials). */
  get settings() {
    return { bucket: this.bucket, endpoint: this.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } };
  }

  async close(): Promise<void> {
    await this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
