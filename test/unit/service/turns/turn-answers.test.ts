import { describe, expect, it } from 'vitest';
import { CancelResult, PostMessageAccepted } from '../../../../src/shared/api';
import { acceptedFromRecord, type Accepted } from '../../../../src/service/turns/turn-answers';
import { acceptedJson, cancelJson } from '../../../../src/service/routes/turn-bodies';

const accepted: Accepted = {
  turnId: 't1',
  key: 'c1/t1',
  state: 'running',
  queueLength: 2,
  replaced: true,
  repeated: false,
  injected: false,
};

describe('turn answers: our words inside, the wire words at the route edge', () => {
  it('writes the 202 body in the wire words, valid against the shared schema', () => {
    const body = acceptedJson(accepted);
    expect(body).toEqual({
      turnId: 't1',
      key: 'c1/t1',
      estado: 'running',
      enCola: 2,
      reemplazoAnterior: true,
      repetido: false,
      inyectado: false,
    });
    expect(PostMessageAccepted.parse(body)).toEqual(body);
  });

  it('reads an idempotency record kept in our words as it is', () => {
    expect(acceptedFromRecord(JSON.parse(JSON.stringify(accepted)))).toEqual(accepted);
  });

  it('reads a record written before the rename (the 202 body in wire words) into our words', () => {
    expect(acceptedFromRecord(acceptedJson(accepted))).toEqual(accepted);
  });

  it('answers cancel in the wire words, with the reason when nothing stopped', () => {
    expect(cancelJson({ stopped: true })).toEqual({ detenido: true });
    expect(cancelJson({ stopped: false, reason: 'no_turn' })).toEqual({
      detenido: false,
      motivo: 'sin_turno',
    });
    expect(cancelJson({ stopped: false, reason: 'other_requester' })).toEqual({
      detenido: false,
      motivo: 'otro_solicitante',
    });
    expect(CancelResult.parse(cancelJson({ stopped: true }))).toEqual({ detenido: true });
  });
});
