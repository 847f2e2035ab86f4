import { describe } from 'vitest';
import { postgresAvailable } from '../support/postgres.js';
import { recordStoreContract } from './record-store.contract.js';

const pg = await postgresAvailable();

describe('RecordStore contract: in-memory', () => recordStoreContract('memory'));
describe('RecordStore contract: SQLite', () => recordStoreContract('sqlite'));
describe.skipIf(!pg)('RecordStore contract: PostgreSQL', () => recordStoreContract('postgresql'));
