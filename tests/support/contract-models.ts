import { c, defineModel } from '../../src/domain/model/index.js';

/** Models the RecordStore contract exercises: every column type, every key kind, soft delete, m2m. */
export const CONTRACT_MODELS = [
  defineModel('writer', {
    id: c.id(),
    name: c.text(),
    email: c.text().nullable().unique(),
    bio: c.text().nullable(),
  }),
  defineModel(
    'article',
    {
      id: c.id(),
      title: c.text(),
      writer_id: c.fk('writer'),
      score: c.int().default(0),
      published: c.bool().default(false),
      rating: c.float().nullable(),
      big: c.bigint().nullable(),
      price: c.decimal().nullable(),
      day: c.date().nullable(),
      meta: c.json().nullable(),
      created_at: c.timestamp().defaultNow(),
      deleted_at: c.timestamp().nullable(),
    },
    { manyToMany: { labels: { target: 'label', through: 'article_labels' } } },
  ),
  defineModel('label', { id: c.stringId(), text: c.text() }),
  defineModel('voucher', { id: c.uuidId(), code: c.text() }),
];

export const CONTRACT_MIGRATIONS = [{ name: 'contract_0001_initial', createTables: ['writer', 'article', 'label', 'voucher', 'article_labels'] }];
