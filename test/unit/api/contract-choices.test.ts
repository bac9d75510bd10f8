import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { CONTRACT_CHOICES } from '../../../api/contractChoices';
import { openApiDocument } from '../../../api/openapi';
import { v2Routes } from '../../../api/app';
import { getConfig } from '../../../shared/platform/config';

const page = readFileSync(resolve(__dirname, '../../../docs/contract-choices.md'), 'utf8');

describe('contract choices: one reading, the same in the docs and the OpenAPI document', () => {
  it('happy: docs/contract-choices.md quotes every reading verbatim, by its id', () => {
    for (const c of CONTRACT_CHOICES) {
      expect(page, c.id).to.include(`\`${c.id}\``);
      expect(page, c.id).to.include(c.reading);
    }
  });

  it('happy: the OpenAPI document lists them and each operation concerned carries its reading', () => {
    const doc = openApiDocument(v2Routes(getConfig()), getConfig().PUBLIC_URL) as {
      'x-contract-choices': { id: string }[];
      info: { description: string };
      paths: Record<string, { get?: { operationId: string; description: string } }>;
    };
    expect(doc['x-contract-choices'].map((c) => c.id)).to.deep.equal(CONTRACT_CHOICES.map((c) => c.id));
    const byOperation = new Map(Object.values(doc.paths).flatMap((p) => (p.get ? [[p.get.operationId, p.get.description] as const] : [])));
    for (const c of CONTRACT_CHOICES) {
      expect(doc.info.description).to.include(c.reading);
      for (const op of c.operations) {
        expect(byOperation.has(op), `${c.id}: operation ${op} exists`).to.equal(true);
        expect(byOperation.get(op), `${c.id} in ${op}`).to.include(`Contract choice: ${c.reading}`);
      }
    }
  });
});
