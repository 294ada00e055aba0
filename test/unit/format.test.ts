// The durations and sizes scripts print (npm test's stage table among them).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytes, formatDuration } from '../../scripts/lib/format.mjs';

test('a duration is rounded before it is split into minutes and seconds', () => {
  assert.equal(formatDuration(850.4), '850 ms');
  assert.equal(formatDuration(999.6), '1.0 s');
  assert.equal(formatDuration(12_345), '12.3 s');
  assert.equal(formatDuration(59_960), '1 min 0 s');
  assert.equal(formatDuration(479_600), '8 min 0 s');
  assert.equal(formatDuration(479_400), '7 min 59 s');
  assert.equal(formatDuration(21 * 60_000 + 6_000), '21 min 6 s');
});

test('a size in B, KiB or MiB', () => {
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(2048), '2.0 KiB');
  assert.equal(formatBytes(3 * 1024 * 1024), '3.00 MiB');
});
