// The search page: joins a session of the daemon over JSON-RPC on a WebSocket and follows it. Whatever
// changes the session (this page, an editor, a script) arrives as stateChanged and resultsUpdated pushes,
// so the page renders pushes only, and the newest state version wins.
import { RpcClient } from "./rpc.js";
import { element, highlighted, looksLikeDate, snippet, valueAt } from "./render.js";
import { renderHistogram } from "./histogram.js";

const $ = (id) => document.getElementById(id);
const fragment = new URLSearchParams(location.hash.slice(1));
const page = {
  rpc: null,
  session: fragment.get("session") || "web",
  index: fragment.get("index") || null,
  searcher: null,
  settings: {},
  state: null,
  shownVersion: -1,
  results: null,
  hits: [],
  pendingQueries: 0,
  typedAt: new Map(),
  loadingPage: false,
};
// Keystroke-to-painted-hits times, read by Benchmarks/ (Performance API).
window.quarryTimings = [];

function status(text, isError = false) {
  const line = $("status");
  line.textContent = text;
  line.classList.toggle("error", isError);
}

async function start() {
  const key = fragment.get("key");
  // The key stays in this page's memory; it leaves the address bar so it is not shared with a screenshot.
  history.replaceState(null, "", location.pathname + (page.session ? "#session=" + encodeURIComponent(page.session) : ""));
  if (!key) return status("No key: open this page with `quarry open`, which adds one to the address.", true);
  page.rpc = new RpcClient(`ws://${location.host}/rpc`, key);
  page.rpc.on("stateChanged", onState);
  page.rpc.on("resultsUpdated", onResults);
  page.rpc.onclose = () => status("Disconnected from the daemon. Reload to reconnect.", true);
  try {
    await page.rpc.connect();
    await page.rpc.request("initialize", {
      clientInfo: { name: "quarry-web" }, capabilities: { general: { positionEncodings: ["utf-16"] } } });
    page.rpc.notify("initialized", {});
    await joinSession(page.session);
  } catch (error) {
    status(error.message, true);
  }
  bindControls();
}

async function indexSettings(index) {
  try {
    return await page.rpc.request("getSettings", { index });
  } catch {
    return {};
  }
}

function facetAttributes(settings) {
  return (settings.attributesForFaceting || []).map((a) => a.replace(/^(searchable|filterOnly|afterDistinct)\((.*)\)$/, "$2"))
    .filter((a) => !/^filterOnly\(/.test(a));
}

async function joinSession(name) {
  const opened = await page.rpc.request("openSession", { session: name });
  page.session = name;
  let state = opened.state;
  let hits = state.searchers.find((s) => s.type === "hits");
  if (!hits) {
    if (!page.index) {
      const indices = (await page.rpc.request("listIndices")).items || [];
      page.index = indices.length ? indices[0].name : null;
    }
    if (!page.index) return status("No index yet: import one with `quarry import`.", true);
    const settings = await indexSettings(page.index);
    const added = await page.rpc.request("addHitsSearcher", {
      session: name, index: page.index, hitsPerPage: 20, facets: facetAttributes(settings) });
    page.searcher = added.searcher;
    state = null;
  } else {
    page.searcher = hits.searcher;
    page.index = hits.index;
  }
  page.settings = await indexSettings(primaryIndex(page.index));
  await ensureHierarchicalMenu();
  if (state) onState({ session: name, stateVersion: opened.stateVersion, state });
  await fillSessions();
  await fillSorts();
  history.replaceState(null, "", location.pathname + "#session=" + encodeURIComponent(name));
  status("");
}

// A replica's primary is the index whose replicas list it; the page asks the primary for its settings.
function primaryIndex(index) {
  return page.primary && page.primaryReplicas && page.primaryReplicas.includes(index) ? page.primary : index;
}

// Level attributes (`x.lvl0`, `x.lvl1`, …) in the index's facets make a hierarchical menu.
function hierarchyLevels() {
  const levels = facetAttributes(page.settings).filter((a) => /\.lvl\d+$/.test(a));
  return levels.sort((a, b) => Number(a.match(/\d+$/)[0]) - Number(b.match(/\d+$/)[0]));
}

async function ensureHierarchicalMenu() {
  const levels = hierarchyLevels();
  if (levels.length < 2) return;
  const state = await page.rpc.request("getState", { session: page.session });
  if ((state.state.hierarchicalMenus || []).some((m) => m.attributes && m.attributes[0] === levels[0])) return;
  await page.rpc.request("setHierarchicalFilter", { session: page.session, attributes: levels, path: null });
}

async function fillSessions() {
  const select = $("session");
  const { sessions } = await page.rpc.request("listSessions");
  select.replaceChildren(...sessions.map((s) =>
    element("option", { value: s.session, selected: s.session === page.session, text: s.session })));
}

async function fillSorts() {
  const select = $("sort");
  const replicas = page.settings.replicas || [];
  if (!page.primary || !(page.primaryReplicas || []).includes(page.index)) {
    page.primary = page.index;
    page.primaryReplicas = replicas.map((r) => r.replace(/^virtual\((.*)\)$/, "$1"));
  }
  page.virtualReplicas = new Set(replicas.filter((r) => r.startsWith("virtual(")).map((r) => r.slice(8, -1)));
  const options = [page.primary, ...page.primaryReplicas];
  select.hidden = options.length < 2;
  select.replaceChildren(...options.map((name, i) =>
    element("option", { value: name, selected: name === page.index, text: i === 0 ? "Most relevant" : sortLabel(name) })));
}

function sortLabel(name) {
  const base = page.primary + "_";
  return (name.startsWith(base) ? name.slice(base.length) : name).replace(/_/g, " ");
}

function onState(params) {
  if (params.session !== page.session || params.stateVersion < page.shownVersion) return;
  page.state = params.state;
  const input = $("q");
  // Another frontend's query shows here; this page's own typing is not overwritten while its requests are out.
  if (page.pendingQueries === 0 && input.value !== params.state.query) input.value = params.state.query;
  const mine = params.state.searchers.find((s) => s.searcher === page.searcher);
  if (mine && mine.index !== page.index) {
    page.index = mine.index;
    $("sort").value = mine.index;
  }
}

function onResults(params) {
  if (params.session !== page.session || params.stateVersion < page.shownVersion) return;
  const results = params.results.find((r) => r.searcher === page.searcher);
  if (!results) return;
  page.shownVersion = params.stateVersion;
  page.results = results;
  if (results.error) return status(results.error.message, true);
  page.hits = results.hits.slice();
  page.page = 0;
  render();
  const typed = page.typedAt.get(results.query);
  if (typed !== undefined) {
    page.typedAt.delete(results.query);
    // After the frame that shows the hits has been painted.
    requestAnimationFrame(() => setTimeout(() => {
      window.quarryTimings.push({ query: results.query, ms: performance.now() - typed });
    }, 0));
  }
}

// Re-rendering replaces elements; the one that had focus (a hit, a facet value, a slider) gets it back. Keys
// are compared as strings, never put in a selector: CSS reads their NUL separators as U+FFFD.
function render() {
  const r = page.results;
  const focused = document.activeElement?.dataset?.focusKey;
  $("stats").textContent = `${r.nbHits.toLocaleString()} hit${r.nbHits === 1 ? "" : "s"} in ${r.processingTimeMS} ms`;
  renderHits(page.hits, false);
  renderRefinements(r);
  renderRelevantSort(r);
  if (focused === undefined || document.activeElement?.dataset?.focusKey === focused) return;
  [...document.querySelectorAll("[data-focus-key]")].find((e) => e.dataset.focusKey === focused)?.focus({ preventScroll: true });
}

function titleAttribute() {
  const searchable = (page.settings.searchableAttributes || []).map((a) => a.replace(/^unordered\((.*)\)$/, "$1").split(",")[0].trim());
  return searchable[0] || "title";
}

function renderHits(hits, append) {
  const list = $("hits");
  if (!append) list.replaceChildren();
  const title = titleAttribute();
  const start = append ? list.children.length : 0;
  hits.slice(start).forEach((hit, offset) => {
    const ranges = hit._matchRanges || {};
    const heading = valueAt(hit, title);
    const item = element("li", { class: "hit", tabindex: "0", "data-object-id": hit.objectID,
      "data-focus-key": `hit\u0000${hit.objectID}` });
    item.append(element("h2", {}, typeof heading === "string" ? highlighted(heading, ranges[title]) : String(hit.objectID)));
    const details = element("p", { class: "snippet" });
    for (const [path, pathRanges] of Object.entries(ranges)) {
      if (path === title) continue;
      const text = valueAt(hit, path);
      if (typeof text !== "string") continue;
      details.append(element("span", { class: "path", text: path + ": " }), snippet(text, pathRanges), " ");
    }
    if (details.childNodes.length) item.append(details);
    const facets = facetAttributes(page.settings).filter((a) => !/\.lvl\d+$/.test(a)).slice(0, 4);
    const meta = facets.filter((a) => !looksLikeDate(a, null)).map((a) => valueAt(hit, a))
      .filter((v) => v !== undefined && typeof v !== "object");
    if (meta.length) item.append(element("p", { class: "meta", text: meta.join(" · ") }));
    item.addEventListener("click", () => openRecord(hit));
    list.append(item);
    void offset;
  });
}

function refinedFilters(attribute) {
  const group = (page.state?.filterGroups || []).find((g) => g.name === attribute);
  return group ? group.filters : [];
}

function renderRefinements(results) {
  const lists = $("lists"), histograms = $("histograms"), hierarchy = $("hierarchy");
  const stats = results.facets_stats || {};
  const levels = hierarchyLevels();
  lists.replaceChildren();
  histograms.replaceChildren();
  hierarchy.replaceChildren();
  for (const [attribute, values] of Object.entries(results.facets || {})) {
    if (levels.includes(attribute)) continue;
    if (stats[attribute]) {
      const range = refinedFilters(attribute).find((f) => f.lower !== undefined);
      histograms.append(renderHistogram(attribute, values, stats[attribute], range, (picked) => setRange(attribute, picked)));
      continue;
    }
    const items = values.slice(0, 12).map(({ value, count, isRefined }) => {
      const box = element("input", { type: "checkbox", checked: isRefined, "data-focus-key": `${attribute}\u0000${value}` });
      box.addEventListener("change", () => toggleFacet(attribute, value));
      return element("li", {}, element("label", {}, box, element("span", { class: "value", text: String(value) }),
        element("span", { class: "count", text: count.toLocaleString() })));
    });
    lists.append(element("section", { class: "refinement-list", "data-attribute": attribute },
      element("h3", { text: attribute }), element("ul", {}, ...items)));
  }
  if (levels.length >= 2) hierarchy.append(renderHierarchy(results, levels));
}

function renderHierarchy(results, levels) {
  const section = element("section", { class: "hierarchy" }, element("h3", { text: levels[0].replace(/\.lvl0$/, "") }));
  const list = element("ul");
  levels.forEach((level, depth) => {
    for (const { value, count, isRefined } of (results.facets[level] || [])) {
      const parent = value.split(" > ").slice(0, -1).join(" > ");
      const parentRefined = depth === 0 || (results.facets[levels[depth - 1]] || []).some((v) => v.isRefined && v.value === parent);
      if (!parentRefined) continue;
      const button = element("button", { type: "button", class: isRefined ? "refined" : "", "aria-pressed": String(isRefined),
        "data-focus-key": `h\u0000${value}` }, element("span", { text: value.split(" > ").pop() }),
        element("span", { class: "count", text: count.toLocaleString() }));
      button.style.paddingInlineStart = 0.5 + depth * 1 + "em";
      button.addEventListener("click", () => page.rpc.request("setHierarchicalFilter",
        { session: page.session, attributes: levels, path: value }).catch(showError));
      list.append(element("li", {}, button));
    }
  });
  section.append(list);
  return section;
}

function renderRelevantSort(results) {
  const button = $("relevant");
  button.hidden = !results.relevantSort;
  if (results.relevantSort) {
    button.textContent = results.relevantSort.toggleTitle || "Toggle relevant sort";
    button.title = results.relevantSort.hint || "";
  }
}

function showError(error) { status(error.message, true); }

function toggleFacet(attribute, value) {
  page.rpc.request("toggleFilter", { session: page.session, group: { name: attribute, operator: "or" },
    filter: { attribute, value } }).catch(showError);
}

function setRange(attribute, picked) {
  page.rpc.request("setFilters", { session: page.session, group: { name: attribute, operator: "or" },
    filters: picked ? [{ attribute, lower: picked.lower, upper: picked.upper }] : [] }).catch(showError);
}

async function openRecord(hit) {
  const dialog = $("record");
  const body = $("record-body");
  body.replaceChildren(element("p", { text: "Loading…" }));
  dialog.showModal();
  try {
    const { results } = await page.rpc.request("getObjects", { index: page.index, objectIDs: [hit.objectID] });
    const record = results[0] || hit;
    body.replaceChildren(element("h2", { text: String(valueAt(record, titleAttribute()) ?? record.objectID) }),
      element("pre", { text: JSON.stringify(record, null, 2) }));
  } catch (error) {
    body.replaceChildren(element("p", { text: error.message }));
  }
}

async function loadNextPage() {
  const r = page.results;
  if (!r || page.loadingPage || (page.page + 1) >= r.nbPages) return;
  page.loadingPage = true;
  const version = page.shownVersion;
  try {
    const next = await page.rpc.request("loadPage", {
      session: page.session, searcher: page.searcher, page: page.page + 1, stateVersion: version });
    if (version === page.shownVersion) {
      page.page += 1;
      page.hits.push(...next.result.hits);
      renderHits(page.hits, true);
    }
  } catch (error) {
    if (error.code !== -32801) showError(error);  // -32801: a newer version came meanwhile; its results show.
  } finally {
    page.loadingPage = false;
  }
}

function moveFocus(step) {
  const hits = [...document.querySelectorAll("#hits .hit")];
  if (!hits.length) return;
  const at = hits.indexOf(document.activeElement);
  const next = at < 0 ? (step > 0 ? 0 : hits.length - 1) : Math.min(hits.length - 1, Math.max(0, at + step));
  hits[next].focus();
  hits[next].scrollIntoView({ block: "nearest" });
}

function bindControls() {
  const input = $("q");
  input.addEventListener("input", () => {
    const query = input.value;
    page.typedAt.set(query, performance.now());
    page.pendingQueries += 1;
    page.rpc.request("setQuery", { session: page.session, query }).catch(showError)
      .finally(() => { page.pendingQueries -= 1; });
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") { event.preventDefault(); moveFocus(1); }
    if (event.key === "Enter") {
      event.preventDefault();
      const first = document.querySelector("#hits .hit");
      if (first) first.click();
    }
  });
  $("hits").addEventListener("keydown", (event) => {
    const hit = event.target.closest(".hit");
    if (!hit) return;
    // Without preventDefault the same Enter would go on to press the dialog's Close button, focused on open.
    if (event.key === "Enter") { event.preventDefault(); hit.click(); }
    if (event.key === "ArrowDown") { event.preventDefault(); moveFocus(1); }
    if (event.key === "ArrowUp") {
      event.preventDefault();
      if (hit === document.querySelector("#hits .hit")) input.focus(); else moveFocus(-1);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "/" && document.activeElement !== input && !$("record").open) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
  $("close-record").addEventListener("click", () => $("record").close());
  $("clear").addEventListener("click", () =>
    page.rpc.request("clearFilters", { session: page.session }).catch(showError));
  $("sort").addEventListener("change", (event) =>
    page.rpc.request("setIndex", { session: page.session, searcher: page.searcher, index: event.target.value }).catch(showError));
  $("relevant").addEventListener("click", () =>
    page.rpc.request("toggleRelevantSort", { session: page.session, searcher: page.searcher }).catch(showError));
  const sessions = $("session");
  sessions.addEventListener("focus", () => fillSessions().catch(showError));
  sessions.addEventListener("change", () => switchSession(sessions.value));
  $("new-session").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("new-session-name").value.trim();
    if (name) switchSession(name);
  });
  new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) loadNextPage();
  }, { rootMargin: "400px" }).observe($("more"));
}

async function switchSession(name) {
  page.shownVersion = -1;
  page.results = null;
  page.searcher = null;
  try {
    await joinSession(name);
  } catch (error) {
    showError(error);
  }
}

start();
