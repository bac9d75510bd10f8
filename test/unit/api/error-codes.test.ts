import { expect } from 'chai';
import { ApiError, ERROR_CODES, ERRORS, WIRE_CODES } from '../../../api/errors';
import { components } from '../../../api/schemas/responses';

describe('the error table: one status and one stable code per error', () => {
  it('happy: every entry has a snake_case code of its own', () => {
    for (const name of ERROR_CODES) expect(ERRORS[name].code, name).to.match(/^[a-z]+(_[a-z]+)*$/);
    expect(new Set(WIRE_CODES).size).to.equal(ERROR_CODES.length);
  });

  it('happy: errors of one status are told apart by their code (the two 403s, the two 400s)', () => {
    const byStatus = new Map<number, string[]>();
    for (const name of ERROR_CODES) byStatus.set(ERRORS[name].status, [...(byStatus.get(ERRORS[name].status) ?? []), ERRORS[name].code]);
    expect(byStatus.get(403)).to.include.members(['insufficient_credits', 'csrf_rejected']);
    expect(byStatus.get(400)).to.have.members(['malformed_request', 'invalid_parameter']);
  });

  it('happy: a body carries the code, and the request id only when given (a cached answer has none)', () => {
    const err = new ApiError('INSUFFICIENT_CREDITS', 'Insufficient credits.', { creditsRequired: 5 });
    expect(err.toBody('req-1')).to.deep.equal({ statusCode: 403, message: 'Insufficient credits.', error: 'Forbidden', code: 'insufficient_credits', requestId: 'req-1', creditsRequired: 5 });
    expect(err.toBody()).to.not.have.property('requestId');
  });

  it('happy: the OpenAPI error schema lists every code and requires it', () => {
    expect(components.Error.required).to.include('code');
    expect(components.Error.properties.code.enum).to.have.members([...WIRE_CODES]);
  });
});
