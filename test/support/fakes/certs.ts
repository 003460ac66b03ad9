/**
 * Certificates for the mutual-TLS tests, made with the openssl CLI into a scratch directory: one CA,
 * a server certificate for 127.0.0.1 (the fake PSP), a client certificate (Lastro), and a client
 * certificate of another CA (a stranger the PSP must refuse).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestCerts {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  strangerCertFile: string;
  strangerKeyFile: string;
  remove(): void;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

function newKey(dir: string, name: string): string {
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`]);
  return path.join(dir, `${name}.key`);
}

function selfSignedCa(dir: string, name: string): void {
  newKey(dir, name);
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    `${name}.key`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-out',
    `${name}.crt`,
  ]);
}

function signed(dir: string, name: string, ca: string, cn: string, extensions: string): void {
  newKey(dir, name);
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-out', `${name}.csr`]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  ]);
}

export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(path.join(tmpdir(), 'lastro-pix-certs-'));
  selfSignedCa(dir, 'psp-ca');
  selfSignedCa(dir, 'stranger-ca');
  signed(
    dir,
    'server',
    'psp-ca',
    '127.0.0.1',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  signed(dir, 'client', 'psp-ca', 'lastro', 'extendedKeyUsage=clientAuth\n');
  signed(dir, 'stranger', 'stranger-ca', 'stranger', 'extendedKeyUsage=clientAuth\n');
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    caFile: file('psp-ca.crt'),
    serverCertFile: file('server.crt'),
    serverKeyFile: file('server.key'),
    clientCertFile: file('client.crt'),
    clientKeyFile: file('client.key'),
    strangerCertFile: file('stranger.crt'),
    strangerKeyFile: file('stranger.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
