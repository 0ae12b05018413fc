// Amounts as the API writes them (decimal strings in USD, six decimals) and as integer micro-USD, so the
// charts' sums are exact and never pass through a binary fraction of a dollar.

/** An API amount ("1.250000") as integer micro-USD, so sums are exact. */
export function micros(usd) {
  const [whole, frac = ''] = String(usd).split('.');
  return Number(whole) * 1e6 + Number((frac + '000000').slice(0, 6));
}

/** Micro-USD as the API writes amounts, six decimals (a negative amount is an overshoot past a limit). */
export function usd(m) {
  const a = Math.abs(Math.round(m));
  return `${m < 0 ? '-' : ''}${Math.floor(a / 1e6)}.${String(a % 1e6).padStart(6, '0')}`;
}

/** An axis label in dollars: short, two decimals. */
export function dollars(m) {
  return '$' + (m / 1e6).toFixed(2);
}
