import { MikroORM } from '@mikro-orm/core';
import { SqliteDriver } from '@mikro-orm/sqlite';
import { entitySchemas } from '/work/main/dist/src/adapters/persistence/sql/entity-schemas.js';
import { BUILTIN_MODELS, ModelRegistry } from '/work/main/dist/src/domain/model/index.js';
import { REFERENCE_MODELS } from '/work/main/dist/examples/reference/models.js';
const orm = await MikroORM.init({ driver: SqliteDriver, dbName: '/work/main/bench/.tmp/bench.db', entities: entitySchemas(ModelRegistry.build([...BUILTIN_MODELS, ...REFERENCE_MODELS])), allowGlobalContext: true, debug: process.env.DBG==='1' });
for (let r=0;r<3;r++){
let t=performance.now();
for (let i=0;i<500;i++) await orm.em.fork().findOne('author',{id:1});
console.log('findOne', (performance.now()-t)/500);
t=performance.now();
for (let i=0;i<500;i++) await orm.em.getConnection().execute('select 1');
console.log('execute', (performance.now()-t)/500);
t=performance.now();
const knex = orm.em.getConnection().getKnex();
for (let i=0;i<500;i++) await knex.raw('select 1');
console.log('knex raw', (performance.now()-t)/500);
t=performance.now();
for (let i=0;i<500;i++) await knex('author').where({id:1}).first();
console.log('knex qb', (performance.now()-t)/500);
}
await orm.close();
