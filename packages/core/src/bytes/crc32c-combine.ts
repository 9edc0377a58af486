// CRC32C of a concatenation from the CRC32C of its parts, without reading the bytes again: a CRC is a polynomial
// remainder, so crc(A‖B) = crc(A)·x^(8·|B|) ⊕ crc(B) modulo the Castagnoli polynomial (the all-ones pre- and
// post-conditioning cancel out). Polynomials are in the reflected form the CRC uses: bit 31 is x^0. Pure; about a
// microsecond per call, however long B is.

/** The Castagnoli polynomial, reflected. */
const POLYNOMIAL = 0x82f6_3b78;
/** x^0 in the reflected form. */
const ONE = 0x8000_0000;
/** `POWERS[k]` = x^(2^k) mod P, for every k a safe-integer byte length can need (8·2^53 bits). */
const POWERS = buildPowers(64);

/**
 * CRC32C of `A‖B` given `crcA = crc32c(A)`, `crcB = crc32c(B)` and `lengthB = B.length` (a non-negative safe
 * integer). Equal to `crc32c(B, crcA)`, without touching B's bytes. Throws RangeError for a bad length.
 */
export function crc32cCombine(crcA: number, crcB: number, lengthB: number): number {
  if (!Number.isSafeInteger(lengthB) || lengthB < 0)
    throw new RangeError(`crc32cCombine: lengthB must be a non-negative safe integer, got ${String(lengthB)}`);
  if (lengthB === 0) return crcA >>> 0;
  return (multiplyModP(powerOfX(lengthB, 3), crcA >>> 0) ^ (crcB >>> 0)) >>> 0;
}

/** x^(n·2^k) mod P for n ≥ 1. */
function powerOfX(n: number, k: number): number {
  let product = ONE;
  let remaining = n;
  let exponent = k;
  while (remaining > 0) {
    if (remaining % 2 === 1) product = multiplyModP(POWERS[exponent] ?? ONE, product);
    remaining = Math.floor(remaining / 2);
    exponent += 1;
  }
  return product;
}

/** a·b mod P, reflected; `a` must be non-zero (every power of x is). */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  let factor = b >>> 0;
  for (let bit = ONE; bit !== 0; bit >>>= 1) {
    if ((a & bit) !== 0) product ^= factor;
    factor = (factor & 1) !== 0 ? (factor >>> 1) ^ POLYNOMIAL : factor >>> 1;
  }
  return product >>> 0;
}

function buildPowers(count: number): number[] {
  const powers = [ONE >>> 1];
  for (let k = 1; k < count; k++) {
    const previous = powers[k - 1] ?? ONE;
    powers.push(multiplyModP(previous, previous));
  }
  return powers;
}
