import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJsonContentType } from '../../src/contract/json-content-type.js';

describe('isJsonContentType', () => {
  it('accepts application/json in any case, with or without parameters', () => {
    for (const header of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json ;x=y',
    ]) {
      assert.equal(isJsonContentType(header), true, header);
    }
  });

  it('refuses what a cross-site form can send, look-alikes, and no header', () => {
    for (const header of [
      null,
      undefined,
      '',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'application/jsonp',
      'application/json-seq',
      'text/json',
      ' application/json',
      'application/problem+json',
    ]) {
      assert.equal(isJsonContentType(header), false, String(header));
    }
  });
});
