// expectShape asserts that value has every key of shape with the given JSON type, so that a
// server change to a client-visible shape fails the suite. A shape is a type name ('string',
// 'integer', 'number', 'boolean', 'null', 'array', 'object', 'any'), a union 'string|null', an
// object of shapes (extra keys in value are allowed), or a one-element array [shape] whose
// element every item must match.
import assert from 'node:assert/strict';

function typeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (Number.isInteger(v)) return 'integer';
  return typeof v;
}

export function expectShape(value, shape, path = '$') {
  if (typeof shape === 'string') {
    const allowed = shape.split('|');
    const got = typeOf(value);
    const ok = allowed.includes('any') || allowed.includes(got) || (got === 'integer' && allowed.includes('number'));
    assert.ok(ok, `${path}: want ${shape}, got ${got} (${JSON.stringify(value)})`);
    return;
  }
  if (Array.isArray(shape)) {
    assert.ok(Array.isArray(value), `${path}: want array, got ${typeOf(value)}`);
    value.forEach((item, i) => expectShape(item, shape[0], `${path}[${i}]`));
    return;
  }
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value),
    `${path}: want object, got ${typeOf(value)} (${JSON.stringify(value)})`);
  for (const [key, sub] of Object.entries(shape)) {
    assert.ok(Object.hasOwn(value, key), `${path}: missing key ${JSON.stringify(key)} in ${JSON.stringify(Object.keys(value))}`);
    expectShape(value[key], sub, `${path}.${key}`);
  }
}

// expectSuccess asserts a Zulip success envelope and returns the response.
export function expectSuccess(res, what) {
  assert.equal(res?.result, 'success', `${what}: ${JSON.stringify(res)}`);
  assert.equal(res.msg, '', `${what}: msg`);
  return res;
}

// expectError asserts a Zulip error envelope with the given code (and msg when given).
export function expectError(res, code, msg, what = 'request') {
  assert.equal(res?.result, 'error', `${what} should fail: ${JSON.stringify(res)}`);
  assert.equal(res.code, code, `${what}: code (msg ${JSON.stringify(res.msg)})`);
  if (msg !== undefined) {
    if (msg instanceof RegExp) assert.match(res.msg, msg, `${what}: msg`);
    else assert.equal(res.msg, msg, `${what}: msg`);
  }
  return res;
}
