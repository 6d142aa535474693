// A numeric facet as a histogram with a range selector: bars from the facet's value counts, bounds from
// its facet stats; the chosen range is a numeric range filter in an or-group of the attribute's name, so the
// histogram keeps counting the values outside it (disjunctive faceting).
import { element, formatNumber, looksLikeDate } from "./render.js";

const BINS = 24;

export function renderHistogram(attribute, values, stats, selected, onRange) {
  const isDate = looksLikeDate(attribute, stats);
  const min = stats.min, max = stats.max;
  const span = max - min || 1;
  const counts = new Array(BINS).fill(0);
  for (const { value, count } of values) {
    const number = Number(value);
    if (!Number.isFinite(number)) continue;
    counts[Math.min(BINS - 1, Math.floor(((number - min) / span) * BINS))] += count;
  }
  const lower = selected ? selected.lower : min;
  const upper = selected ? selected.upper : max;
  const peak = Math.max(1, ...counts);
  const bars = element("div", { class: "bars", "aria-hidden": "true" });
  counts.forEach((count, index) => {
    const binLower = min + (span * index) / BINS;
    const binUpper = min + (span * (index + 1)) / BINS;
    const bar = element("span", { class: "bar" + (binUpper < lower || binLower > upper ? " out" : ""), title: String(count) });
    bar.style.height = Math.max(2, Math.round((count / peak) * 100)) + "%";
    bars.append(bar);
  });
  const step = Number.isInteger(min) && Number.isInteger(max) ? 1 : span / 200;
  const label = element("output", { class: "range-label", text: `${formatNumber(lower, isDate)} – ${formatNumber(upper, isDate)}` });
  const low = element("input", { type: "range", min, max, step, value: lower, "aria-label": `${attribute} from`, "data-bound": "lower",
    "data-focus-key": `range\u0000${attribute}\u0000lower` });
  const high = element("input", { type: "range", min, max, step, value: upper, "aria-label": `${attribute} to`, "data-bound": "upper",
    "data-focus-key": `range\u0000${attribute}\u0000upper` });
  let timer;
  const changed = () => {
    let a = Number(low.value), b = Number(high.value);
    if (a > b) [a, b] = [b, a];
    label.textContent = `${formatNumber(a, isDate)} – ${formatNumber(b, isDate)}`;
    clearTimeout(timer);
    timer = setTimeout(() => onRange(a <= min && b >= max ? null : { lower: a, upper: b }), 120);
  };
  low.addEventListener("input", changed);
  high.addEventListener("input", changed);
  return element("section", { class: "histogram", "data-attribute": attribute },
    element("h3", { text: attribute }), bars, element("div", { class: "sliders" }, low, high), label);
}
