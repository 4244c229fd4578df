import { runStorageConformance } from '@zerda/core/testing';
import type { StorageAdapter } from '@zerda/core';
import { PostgresStorage } from './postgres-storage.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';

describePostgres('PostgresStorage on a real PostgreSQL + pgvector', (url) => {
  const schema = freshSchema('conf');
  const open = () =>
    PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema, maxConnections: 4 });
  runStorageConformance('PostgresStorage', open, {
    reopen: async (old: StorageAdapter) => {
      await old.close();
      return open();
    },
  });
});
