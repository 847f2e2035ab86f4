import type { Row } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordStore } from '../../ports/record-store.js';
import { duplicateAccount, refuseBadAccount } from './sign-up.js';

/** What `portico createsuperuser` asks for. */
export interface CreateSuperuserInput {
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

/**
 * Creates a staff superuser (Django's `createsuperuser`) under the signup rules: the username,
 * email and password checks, case-insensitive uniqueness, argon2id. Throws SignUpRefused listing
 * every problem, and writes nothing then. The address counts as verified: the operator typed it.
 *
 * @example
 * await new CreateSuperuser(store, hasher, clock).execute({ username: 'root', email: 'root@example.com', password: 'a long passphrase' });
 */
export class CreateSuperuser {
  constructor(
    private readonly store: RecordStore,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateSuperuserInput): Promise<Row> {
    const username = input.username.trim();
    const email = input.email.trim();
    await refuseBadAccount(this.store, username, email, input.password);
    const row = { username, email, password_hash: await this.hasher.hash(input.password), is_staff: true, is_superuser: true, email_verified_at: this.clock.now() };
    try {
      return await this.store.insert('auth_user', row);
    } catch (error) {
      throw duplicateAccount(error) ?? error;
    }
  }
}
