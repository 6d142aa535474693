-- Pure rendering: hits and facet lists to buffer lines and highlight spans.
-- Buffer columns count UTF-8 bytes; `_matchRanges` count code units of the
-- negotiated encoding, so UTF-16 spans are converted on the value's own text.
local M = {}

local function flatten(text)
  -- One byte for one byte, so match offsets stay valid.
  return (text:gsub("[\n\r\t]", " "))
end

local function value_at(record, path)
  local value = record
  for component in (path .. "."):gmatch("([^.]*)%.") do
    if type(value) ~= "table" then return nil end
    local position = tonumber(component)
    value = position and value[position + 1] or value[component]
  end
  return value
end

local function as_text(value)
  if type(value) == "string" then return value end
  if value == nil or value == vim.NIL then return "" end
  return vim.json.encode(value)
end

-- The attribute a line shows: the configured one, else the first searchable
-- attribute, else a common name, else the alphabetically first text attribute.
function M.display_attribute(hit, preferred)
  for _, name in ipairs(preferred or {}) do
    if type(hit[name]) == "string" then return name end
  end
  for _, name in ipairs({ "title", "name", "label" }) do
    if type(hit[name]) == "string" then return name end
  end
  local names = {}
  for key, value in pairs(hit) do
    if type(value) == "string" and key ~= "objectID" and key:sub(1, 1) ~= "_" then table.insert(names, key) end
  end
  table.sort(names)
  return names[1] or "objectID"
end

-- The spans of `path` as byte offsets into `text` (its raw value).
local function spans_of(hit, path, text, encoding)
  local ranges = type(hit._matchRanges) == "table" and hit._matchRanges[path]
  local spans = {}
  for _, span in ipairs(type(ranges) == "table" and ranges or {}) do
    local start, stop = tonumber(span[1]), tonumber(span[2])
    if start and stop and encoding == "utf-16" then
      local ok_start, byte_start = pcall(vim.str_byteindex, text, start, true)
      local ok_stop, byte_stop = pcall(vim.str_byteindex, text, stop, true)
      start, stop = ok_start and byte_start or nil, ok_stop and byte_stop or nil
    end
    if start and stop and start < stop and stop <= #text then table.insert(spans, { start, stop }) end
  end
  return spans
end

-- About 60 bytes around the first span, cut on UTF-8 character boundaries.
local function excerpt(text, spans)
  local first = spans[1] and spans[1][1] or 0
  local start, stop = math.max(0, first - 20), math.min(#text, first + 40)
  while start > 0 and text:byte(start + 1) and text:byte(start + 1) >= 0x80 and text:byte(start + 1) < 0xC0 do
    start = start - 1
  end
  while stop < #text and text:byte(stop + 1) >= 0x80 and text:byte(stop + 1) < 0xC0 do stop = stop + 1 end
  local prefix = start > 0 and "…" or ""
  local shifted = {}
  for _, span in ipairs(spans) do
    if span[1] >= start and span[2] <= stop then
      table.insert(shifted, { span[1] - start + #prefix, span[2] - start + #prefix })
    end
  end
  return prefix .. text:sub(start + 1, stop) .. (stop < #text and "…" or ""), shifted
end

-- One hit: its line and its highlights `{start_col, end_col, group}`.
-- `encoding` is the connection's position encoding ("utf-8" when nil).
function M.hit_line(hit, preferred, encoding)
  local attribute = M.display_attribute(hit, preferred)
  local raw = as_text(value_at(hit, attribute))
  local text = flatten(raw)
  local highlights = {}
  for _, span in ipairs(spans_of(hit, attribute, raw, encoding)) do
    table.insert(highlights, { span[1], span[2], "QuarryMatch" })
  end
  if #highlights == 0 and type(hit._matchRanges) == "table" then
    local paths = vim.tbl_keys(hit._matchRanges)
    table.sort(paths)
    local other = paths[1]
    if other then
      local label = "  · " .. other .. ": "
      local other_raw = as_text(value_at(hit, other))
      local body, shifted = excerpt(flatten(other_raw), spans_of(hit, other, other_raw, encoding))
      table.insert(highlights, { #text, #text + #label, "QuarryDim" })
      for _, span in ipairs(shifted) do
        table.insert(highlights, { #text + #label + span[1], #text + #label + span[2], "QuarryMatch" })
      end
      text = text .. label .. body
    end
  end
  return text, highlights
end

-- Every hit: lines, and highlights `{line, start_col, end_col, group}` (0-based lines).
function M.results(hits, preferred, encoding)
  local lines, highlights = {}, {}
  for index, hit in ipairs(hits or {}) do
    local line, spans = M.hit_line(hit, preferred, encoding)
    lines[index] = line
    for _, span in ipairs(spans) do table.insert(highlights, { index - 1, span[1], span[2], span[3] }) end
  end
  return lines, highlights
end

-- What looks like a Unix timestamp: from 1973-03-03 (1e8 s) to 2100-01-01.
-- From 1e11 on, a value is taken as milliseconds (1e11 s would be the year 5138).
local EPOCH_FIRST, EPOCH_LAST = 1e8, 4102444800

-- A whole number as Unix seconds; outside the range above only when `any` (a facet marked as dates).
local function epoch_seconds(value, any)
  local number = tonumber(value)
  if not number or number ~= math.floor(number) then return nil end
  if math.abs(number) >= 1e11 then number = number / 1000 end
  if not any and (number < EPOCH_FIRST or number >= EPOCH_LAST) then return nil end
  return math.floor(number)
end

-- Names that usually hold a time: date, time, timestamp, and suffixes such as
-- created_at, film_date, start_time, published_on, publishedAt, releaseDate, startTime.
local function named_like_a_time(attribute)
  local name = attribute:match("[^.]*$")
  local lower = name:lower()
  if lower == "date" or lower == "time" or lower == "timestamp" or lower == "datetime" then return true end
  for _, suffix in ipairs({ "_at$", "_date$", "_time$", "_on$" }) do
    if lower:match(suffix) then return true end
  end
  return (name:match("%lAt$") or name:match("%lDate$") or name:match("%lTime$")) ~= nil
end

-- Whether a facet's values are shown as dates: `dates[attribute]` (the setup's
-- `date_facets`) says so, or, unless it is false, the attribute is named like a
-- time and every value is a whole number in the epoch range above.
function M.is_date_facet(attribute, items, dates)
  local marked = dates and dates[attribute]
  if marked ~= nil then return marked end
  if not named_like_a_time(attribute) or type(items) ~= "table" or #items == 0 then return false end
  for _, item in ipairs(items) do
    if not epoch_seconds(item.value) then return false end
  end
  return true
end

-- A Unix timestamp as its date in the local time zone, YYYY-MM-DD; anything else as it is.
function M.date_text(value)
  local seconds = epoch_seconds(value, true)
  local ok, text = pcall(os.date, "%Y-%m-%d", seconds)
  return seconds and ok and text or as_text(value)
end

-- The facet panel: a title per attribute, then `[x] value (count)` per value;
-- `entries[line]` says which refinement a line toggles. `dates` as in is_date_facet.
function M.facets(facets, order, dates)
  local lines, highlights, entries = {}, {}, {}
  local attributes = {}
  for _, name in ipairs(order or {}) do
    if type(facets) == "table" and facets[name] then table.insert(attributes, name) end
  end
  if type(facets) == "table" then
    local rest = {}
    for name in pairs(facets) do
      if not vim.tbl_contains(attributes, name) then table.insert(rest, name) end
    end
    table.sort(rest)
    vim.list_extend(attributes, rest)
  end
  for _, attribute in ipairs(attributes) do
    table.insert(lines, attribute)
    table.insert(highlights, { #lines - 1, 0, #attribute, "QuarryFacetTitle" })
    local show = M.is_date_facet(attribute, facets[attribute], dates) and M.date_text or as_text
    for _, item in ipairs(facets[attribute]) do
      local mark = item.isRefined and "[x] " or "[ ] "
      local text = string.format("%s%s (%d)", mark, show(item.value), tonumber(item.count) or 0)
      table.insert(lines, text)
      entries[#lines] = { attribute = attribute, value = item.value, refined = item.isRefined == true }
      if item.isRefined then table.insert(highlights, { #lines - 1, 0, 3, "QuarryRefined" }) end
    end
  end
  return lines, highlights, entries
end

-- 1216 as "1,216".
local function grouped(count)
  local text = tostring(math.floor(count))
  local head = #text % 3 == 0 and 3 or #text % 3
  return text:sub(1, head) .. text:sub(head + 1):gsub("(%d%d%d)", ",%1")
end

-- "no hits", "1 hit", "1,216 hits"; an estimate as one: "~1,200 hits".
local function count_of(count, noun, estimate)
  if estimate then return "~" .. grouped(count) .. " " .. noun .. "s" end
  if count == 0 then return "no " .. noun .. "s" end
  return string.format("%s %s%s", grouped(count), noun, count == 1 and "" or "s")
end

-- Whether `nbHits` is an estimate (a Typesense cluster's fast answer; the exact count follows).
local function estimated(result)
  return (type(result.exhaustive) == "table" and result.exhaustive.nbHits == false) or result.exhaustiveNbHits == false
end

-- The prompt's status: hit count, index, and the relevant-sort state.
function M.status(result, index)
  if type(result) ~= "table" then return index end
  local parts = { count_of(tonumber(result.nbHits) or 0, "hit", estimated(result)), index }
  if type(result.relevantSort) == "table" then
    table.insert(parts, result.relevantSort.priority == "relevancy" and "relevant" or "all")
  end
  if type(result.error) == "table" then table.insert(parts, "error: " .. tostring(result.error.message)) end
  return table.concat(parts, " · ")
end

M.value_at = value_at
return M
