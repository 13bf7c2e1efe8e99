// The click-to-connect bench's options and figures: node --test bench/click-to-connect.test.mjs (from web/).
import { strict as assert } from 'node:assert'
import { test } from 'node:test'
import { median, parseOptions, summarize } from './click-to-connect.mjs'

test('options: defaults, values, and bad values refused with the flag named', () => {
  assert.deepEqual(parseOptions([]), { runs: 3, opens: 31, hoverMs: 0, trace: undefined })
  assert.deepEqual(parseOptions(['--runs', '5', '--opens', '10', '--hover', '300', '--trace', '/tmp/t.json']), { runs: 5, opens: 10, hoverMs: 300, trace: '/tmp/t.json' })
  assert.throws(() => parseOptions(['--runs', '0']), /--runs must be a whole number of at least 1, not "0"/)
  assert.throws(() => parseOptions(['--opens', '1']), /--opens must be a whole number of at least 2/)
  assert.throws(() => parseOptions(['--hover=-5']), /--hover must be a whole number of at least 0/)
  assert.throws(() => parseOptions(['--runs', '2.5']), /--runs must be a whole number/)
  assert.throws(() => parseOptions(['--runz', '2']), /Unknown option '--runz'/)
})

test('a run: the first open apart, the median and p95 of the later ones', () => {
  const later = Array.from({ length: 20 }, (_, i) => 20 - i) // 20..1, unsorted
  assert.deepEqual(summarize([100, ...later]), { first: 100, median: 11, p95: 20, later: 20 })
})

test('the median of the runs', () => {
  assert.equal(median([3, 1, 2]), 2)
  assert.equal(median([4, 1, 3, 2]), 2.5)
})
