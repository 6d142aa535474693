// Building the page's elements from results. Text is always set as text: the engine's highlighted HTML is
// never injected; highlights come from `_matchRanges` (UTF-16 code units, which is what JavaScript strings count).

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// `text` with `ranges` ([start, end) pairs) wrapped in <mark>, between `from` and `to`.
export function highlighted(text, ranges = [], from = 0, to = text.length) {
  const fragment = document.createDocumentFragment();
  let at = from;
  for (const [start, end] of ranges) {
    const s = Math.max(start, from), e = Math.min(end, to);
    if (e <= s || s < at) continue;
    fragment.append(text.slice(at, s), element("mark", { text: text.slice(s, e) }));
    at = e;
  }
  fragment.append(text.slice(at, to));
  return fragment;
}

// A window of `text` around its first match, with the matches in it marked: a snippet built from the ranges.
export function snippet(text, ranges = [], width = 160) {
  if (text.length <= width) return highlighted(text, ranges);
  const first = ranges.length ? ranges[0][0] : 0;
  let from = Math.max(0, first - Math.floor(width / 3));
  const to = Math.min(text.length, from + width);
  from = Math.max(0, to - width);
  // Start at a word, unless that would skip the match.
  const space = text.indexOf(" ", from);
  if (from > 0 && space >= 0 && space < first) from = space + 1;
  const fragment = document.createDocumentFragment();
  if (from > 0) fragment.append("… ");
  fragment.append(highlighted(text, ranges, from, to));
  if (to < text.length) fragment.append(" …");
  return fragment;
}

export function valueAt(record, path) {
  return path.split(".").reduce((value, key) => (value == null ? undefined : value[key]), record);
}

// A number shown as a date when the attribute holds times (Unix seconds or milliseconds).
export function formatNumber(value, isDate) {
  if (!isDate) return Number.isInteger(value) ? String(value) : value.toFixed(2);
  const date = new Date(value > 1e11 ? value : value * 1000);
  return date.toISOString().slice(0, 10);
}

export function looksLikeDate(attribute, stats) {
  return /(date|time|_at|At)$/.test(attribute) || (stats && stats.min > 1e8);
}
