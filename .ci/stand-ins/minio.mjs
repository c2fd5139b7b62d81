#!/usr/bin/env node
// Stands in for `minio server DIR`: s3rver (the S3 REST API over files) on port 9000 over DIR, with
// MINIO_ROOT_USER and MINIO_ROOT_PASSWORD as its key pair. s3rver checks a version 4 signature's key
// id, not the signature itself. Buckets are named in the path, as MinIO's are without MINIO_DOMAIN.
import { createRequire } from 'node:module';

const require = createRequire('/opt/s3rver/node_modules/');
const S3rver = require('s3rver');
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account');

const [command, directory] = process.argv.slice(2);
if (command !== 'server' || !directory) {
  console.error('usage: minio server DIR');
  process.exit(2);
}
DUMMY_ACCOUNT.createKeyPair(process.env.MINIO_ROOT_USER, process.env.MINIO_ROOT_PASSWORD);
const server = new S3rver({ address: '0.0.0.0', port: 9000, directory, vhostBuckets: false, silent: false });
await server.run();
console.log(`S3 API on :9000 over ${directory}`);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.close().then(() => process.exit(0)));
}
