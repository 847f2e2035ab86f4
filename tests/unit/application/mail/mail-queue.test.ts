import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AesGcmSecretBox } from '../../../../src/adapters/crypto/aes-gcm-secret-box.js';
import { MAIL_TASK, MailQueue, type MailJob } from '../../../../src/application/mail/mail-queue.js';
import type { TaskClient } from '../../../../src/application/tasks/tasks.js';
import type { MailMessage } from '../../../../src/ports/mailer.js';
import { openTestDatabase, type TestDatabase } from '../../../support/open-test-database.js';

/** The mail queue seals a message with its attachment bytes into one job, refuses a header injection in the writing transaction, and delivers the same bytes. */
describe('MailQueue', () => {
  let t: TestDatabase;
  const jobs: MailJob[] = [];
  const sent: MailMessage[] = [];
  let queue: MailQueue;
  beforeAll(async () => {
    t = await openTestDatabase('memory');
    const tasks = { enqueueIn: async (_tx: unknown, name: string, payload: MailJob) => (name === MAIL_TASK ? jobs.push(payload) : 0) } as unknown as TaskClient;
    queue = new MailQueue({ tasks: () => tasks, mailer: { send: async (m) => void sent.push(m) }, events: t.events, box: new AesGcmSecretBox('a test secret of some length', 'mail') });
  });
  afterAll(() => t.close());

  it('round-trips attachment bytes through the sealed job', async () => {
    const content = new Uint8Array([0, 1, 2, 250, 255]);
    await t.db.store.transaction((tx) => queue.send(tx, { to: 'a@example.com', subject: 'Report', text: 'see attached', kind: 'Report', attachments: [{ filename: 'r.bin', contentType: 'application/octet-stream', content }] }));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.sealed).not.toContain('see attached');
    await queue.deliver(jobs[0] as MailJob);
    expect(sent[0]?.attachments?.[0]?.content).toEqual(content);
  });

  it('refuses a subject with a line break before anything is queued', async () => {
    const before = jobs.length;
    await expect(t.db.store.transaction((tx) => queue.send(tx, { to: 'a@example.com', subject: 'Hi\r\nBcc: x@example.com', text: '', kind: 'X' }))).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/subject holds a line break/) });
    expect(jobs).toHaveLength(before);
  });
});
