import { expect } from 'chai';
import { v2Routers } from '../../../api/app';
import { processContext } from '../../../shared/app/processContext';
import { priceOf } from '../../../shared/domain/billing/costs';

/**
 * Metering prices requests by path from the cost table, so a /v2 route missing from the table
 * would be served for free. Every route of every /v2 router must have a row.
 */
describe('billing: every /v2 route is in the cost table', () => {
  it('security: no /v2 GET route is left unpriced', () => {
    const unpriced: string[] = [];
    for (const router of v2Routers(processContext())) {
      for (const layer of router.stack as { route?: { path: string; methods: Record<string, boolean> } }[]) {
        if (!layer.route || !layer.route.methods.get) continue;
        const path = `/v2${layer.route.path}`.replace(/:([A-Za-z]+)/g, 'x');
        if (!priceOf('GET', path)) unpriced.push(`GET /v2${layer.route.path}`);
      }
    }
    expect(unpriced).to.deep.equal([]);
  });
});
