import { MikroORM } from '@mikro-orm/core';
import { SqliteDriver } from '@mikro-orm/sqlite';
import { entitySchemas } from '/work/main/dist/src/adapters/persistence/sql/entity-schemas.js';
import { BUILTIN_MODELS, ModelRegistry } from '/work/main/dist/src/domain/model/index.js';
import { REFERENCE_MODELS } from '/work/main/dist/examples/reference/models.js';
const orm = await MikroORM.init({ driver: SqliteDriver, dbName: '/work/main/bench/.tmp/bench.db', entities: entitySchemas(ModelRegistry.build([...BUILTIN_MODELS, ...REFERENCE_MODELS])), allowGlobalContext: true, debug: false });
const knex = orm.em.getConnection().getKnex();
const conn = orm.em.getConnection();
async function time(name, f){ for(let i=0;i<300;i++) await f(); const t=performance.now(); for (let i=0;i<2000;i++) await f(); console.log(name, ((performance.now()-t)/2000).toFixed(3)); }
for (let r=0;r<2;r++){
await time('findOne fork', () => orm.em.fork().findOne('author',{id:1}));
await time('findOne global', () => orm.em.findOne('author',{id:1}, {disableIdentityMap:true}));
await time('knex raw inline', () => knex.raw('select `a0`.* from `author` as `a0` where `a0`.`id` = 1 limit 1'));
await time('conn.execute inline', () => conn.execute('select `a0`.* from `author` as `a0` where `a0`.`id` = 1 limit 1'));
await time('knex qb', () => knex('author').where({id:1}).first());
await time('select 1', () => conn.execute('select 1'));
}
await orm.close();
