#!/usr/bin/env node
// Stands in for the MinIO client in the commands compose.yaml runs: `mc ready local`,
// `mc alias set NAME URL USER PASSWORD` and `mc mb [--ignore-existing] NAME/BUCKET`. Aliases are kept
// in ~/.mc/aliases.json; requests to the store are anonymous (its stand-in, s3rver, allows them).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const aliasFile = join(homedir(), '.mc', 'aliases.json');
const readAliases = () => {
  try {
    return JSON.parse(readFileSync(aliasFile, 'utf8'));
  } catch {
    return { local: { url: 'http://127.0.0.1:9000' } };
  }
};

async function main(args) {
  const flags = new Set(args.filter((argument) => argument.startsWith('--')));
  const [command, ...rest] = args.filter((argument) => !argument.startsWith('--'));
  if (command === 'ready') {
    const alias = readAliases()[rest[0]];
    if (!alias) throw new Error(`unknown alias ${rest[0]}`);
    await fetch(`${alias.url}/`);
    return;
  }
  if (command === 'alias' && rest[0] === 'set') {
    const [name, url, user] = rest.slice(1);
    mkdirSync(join(homedir(), '.mc'), { recursive: true });
    writeFileSync(aliasFile, JSON.stringify({ ...readAliases(), [name]: { url, user } }));
    console.log(`Added \`${name}\` successfully.`);
    return;
  }
  if (command === 'mb') {
    const [name, bucket] = rest[0].split('/');
    const alias = readAliases()[name];
    if (!alias || !bucket) throw new Error(`usage: mc mb ALIAS/BUCKET (${rest[0]})`);
    const answer = await fetch(`${alias.url}/${bucket}`, { method: 'PUT' });
    const exists = answer.status === 409 && flags.has('--ignore-existing');
    if (!answer.ok && !exists) throw new Error(`${answer.status} ${await answer.text()}`);
    console.log(`Bucket created successfully \`${rest[0]}\`.`);
    return;
  }
  throw new Error(`not stood in for: mc ${args.join(' ')}`);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(`mc: ${error.message}`);
  process.exit(1);
});
