// Exact decimal money (SPEC §5); twin of server/rules/money.py. A decimal is [BigInt mantissa,
// exponent]; numbers enter by their shortest round-trip text (String(x)), like Python's repr().
const DEC = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

export function dec(x) {
  if (Array.isArray(x)) return x;
  const m = DEC.exec(String(x));
  if (!m) throw new Error(`not a decimal: ${x}`);
  const frac = m[3] || "";
  let mant = BigInt(m[2] + frac);
  if (m[1] === "-") mant = -mant;
  return [mant, (m[4] ? parseInt(m[4], 10) : 0) - frac.length];
}

export function mul(a, b) {
  const [ma, ea] = dec(a), [mb, eb] = dec(b);
  return [ma * mb, ea + eb];
}

export function cents(value, unitValue) {
  const [m, e0] = mul(value, unitValue);
  const e = e0 + 2;
  if (e >= 0) return Number(m * 10n ** BigInt(e));
  const div = 10n ** BigInt(-e);
  const neg = m < 0n;
  const abs = neg ? -m : m;
  let q = abs / div;
  if ((abs % div) * 2n >= div) q += 1n;          // half up (away from zero)
  return Number(neg ? -q : q);
}

function decToString([m, e]) {
  const neg = m < 0n;
  let digits = (neg ? -m : m).toString();
  if (e >= 0) return (neg ? "-" : "") + digits + "0".repeat(e);
  while (digits.length <= -e) digits = "0" + digits;
  const cut = digits.length + e;
  return (neg ? "-" : "") + digits.slice(0, cut) + "." + digits.slice(cut);
}

export function toNumber(d) { return Number(decToString(dec(d))); }

export function fmt(d) { return String(toNumber(d)).replace(".", ","); }
