-- The floating picker: a prompt line that types into the session, the hits
-- with their matches highlighted, and a facet panel. It draws whatever the
-- session pushes, so it follows changes made by any other frontend too.
local render = require("quarry.render")
local sessions = require("quarry.session")

local api = vim.api
local M = {}
local Picker = {}
Picker.__index = Picker

local ns = api.nvim_create_namespace("quarry")
local status_ns = api.nvim_create_namespace("quarry_status")

local function define_highlights()
  vim.cmd([[
    highlight default link QuarryMatch Search
    highlight default link QuarryDim Comment
    highlight default link QuarryFacetTitle Title
    highlight default link QuarryRefined Special
  ]])
end

local function strip_modifier(name)
  return name:match("^%w+%((.*)%)$") or name
end

local function scratch_buffer(filetype)
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_option(buf, "bufhidden", "wipe")
  api.nvim_buf_set_option(buf, "filetype", filetype)
  return buf
end

-- What the index's settings tell the picker: display, facets, sort-by choices.
local function read_settings(client, index)
  local settings, err = client:request_sync("getSettings", { index = index }, 10000)
  if not settings then return nil, err end
  local info = { searchable = {}, facets = {}, sort_indices = { index } }
  for _, name in ipairs(type(settings.searchableAttributes) == "table" and settings.searchableAttributes or {}) do
    for part in name:gmatch("[^,]+") do table.insert(info.searchable, vim.trim(strip_modifier(part))) end
  end
  for _, name in ipairs(type(settings.attributesForFaceting) == "table" and settings.attributesForFaceting or {}) do
    if not name:match("^filterOnly%(") then table.insert(info.facets, strip_modifier(name)) end
  end
  for _, name in ipairs(type(settings.replicas) == "table" and settings.replicas or {}) do
    table.insert(info.sort_indices, strip_modifier(name))
  end
  return info
end

function M.open(client, index, name, config)
  if M.current then M.current:close() end
  define_highlights()
  local info, err = read_settings(client, index)
  if not info then
    vim.notify("quarry: " .. tostring(err and err.message), vim.log.levels.ERROR)
    return nil
  end
  local dates = {}
  for key, value in pairs(config.date_facets or {}) do
    if type(key) == "number" then dates[value] = true else dates[key] = value end
  end
  local picker = setmetatable({
    client = client, index = index, name = name, config = config, info = info, dates = dates,
    preferred = config.display[index] and { config.display[index] } or info.searchable,
    origin = api.nvim_get_current_win(), hits = {}, selected = 1, pending = 0, last_text = "",
  }, Picker)
  M.current = picker
  picker:create_windows()
  picker:map_keys()
  sessions.attach(client, name, index, { hits_per_page = config.hits_per_page, facets = info.facets },
    function(session, attach_err)
      if not session then
        vim.notify("quarry: " .. tostring(attach_err.message), vim.log.levels.ERROR)
        return picker:close()
      end
      if picker.closed then return session:detach() end
      picker.session = session
      session:subscribe(function(kind) picker:on_session(kind) end)
      local typed = picker:prompt_text()
      if typed ~= "" and typed ~= session:query() then
        picker:send_query(typed)
      else
        picker:show_query(session:query())
      end
      picker:refresh()
    end)
  return picker
end

function Picker:create_windows()
  local columns, rows = vim.o.columns, vim.o.lines
  local width = math.max(40, math.floor(columns * self.config.width))
  local height = math.max(8, math.floor(rows * self.config.height))
  local row, col = math.floor((rows - height) / 2), math.floor((columns - width) / 2)
  local facet_width = #self.info.facets > 0 and math.floor(width * 0.3) or 0
  local results_width = width - (facet_width > 0 and facet_width + 2 or 0)
  local function float(buf, spec, enter)
    return api.nvim_open_win(buf, enter, vim.tbl_extend("force",
      { relative = "editor", style = "minimal", border = "rounded", zindex = 50 }, spec))
  end
  self.prompt_buf = scratch_buffer("quarry_prompt")
  self.results_buf = scratch_buffer("quarry_results")
  self.results_win = float(self.results_buf, { row = row + 3, col = col, width = results_width, height = height - 3 }, false)
  api.nvim_win_set_option(self.results_win, "cursorline", true)
  api.nvim_win_set_option(self.results_win, "wrap", false)
  if facet_width > 0 then
    self.facets_buf = scratch_buffer("quarry_facets")
    self.facets_win = float(self.facets_buf,
      { row = row + 3, col = col + results_width + 2, width = facet_width, height = height - 3 }, false)
    api.nvim_win_set_option(self.facets_win, "cursorline", true)
  end
  self.prompt_win = float(self.prompt_buf, { row = row, col = col, width = width, height = 1 }, true)
  api.nvim_buf_attach(self.prompt_buf, false, {
    on_lines = function()
      -- Buffers may not change inside on_lines: react on the next tick.
      vim.schedule(function() self:on_prompt_changed() end)
    end,
  })
  self.augroup = api.nvim_create_augroup("quarry_picker", { clear = true })
  api.nvim_create_autocmd("WinEnter", { group = self.augroup, callback = function()
    vim.schedule(function()
      local current = api.nvim_get_current_win()
      if not self.closed and current ~= self.prompt_win and current ~= self.facets_win and current ~= self.results_win then
        self:close()
      end
    end)
  end })
  vim.cmd("startinsert")
end

function Picker:map_keys()
  local keys = self.config.keys
  local function map(buf, modes, lhs, action)
    if lhs then vim.keymap.set(modes, lhs, action, { buffer = buf, nowait = true, silent = true }) end
  end
  local both = { "i", "n" }
  map(self.prompt_buf, both, keys.select, function() self:select() end)
  map(self.prompt_buf, both, keys.next, function() self:move(1) end)
  map(self.prompt_buf, both, "<Down>", function() self:move(1) end)
  map(self.prompt_buf, both, keys.previous, function() self:move(-1) end)
  map(self.prompt_buf, both, "<Up>", function() self:move(-1) end)
  map(self.prompt_buf, both, keys.relevant_sort, function() self:toggle_relevant_sort() end)
  map(self.prompt_buf, both, keys.sort_by, function() self:next_sort() end)
  map(self.prompt_buf, both, keys.close, function() self:close() end)
  map(self.prompt_buf, "n", "<Esc>", function() self:close() end)
  map(self.prompt_buf, "n", "q", function() self:close() end)
  if self.facets_buf then
    map(self.prompt_buf, both, keys.facets, function() self:focus_facets() end)
    map(self.prompt_buf, both, keys.add_facets, function() self:add_facets() end)
    map(self.facets_buf, "n", keys.add_facets, function() self:add_facets() end)
    for _, lhs in ipairs({ "<Space>", "<CR>", "x" }) do
      map(self.facets_buf, "n", lhs, function() self:toggle_facet_at_cursor() end)
    end
    map(self.facets_buf, "n", keys.facets, function() self:focus_prompt() end)
    map(self.facets_buf, "n", "<Esc>", function() self:focus_prompt() end)
    map(self.facets_buf, "n", "q", function() self:close() end)
  end
end

function Picker:prompt_text()
  if not api.nvim_buf_is_valid(self.prompt_buf) then return "" end
  return api.nvim_buf_get_lines(self.prompt_buf, 0, 1, false)[1] or ""
end

-- Typing: every change of the prompt becomes the session's query.
function Picker:on_prompt_changed()
  if self.closed then return end
  local text = self:prompt_text()
  if text == self.last_text then return end
  self.last_text = text
  if self.session then self:send_query(text) end
end

function Picker:send_query(text)
  self.last_text = text
  self.pending = self.pending + 1
  self.session:set_query(text, function(err)
    self.pending = self.pending - 1
    if err and err.code ~= -32800 then vim.notify("quarry: " .. tostring(err.message), vim.log.levels.WARN) end
    self:follow_remote_query()
  end)
end

-- Another frontend typed: show its query (ours are in flight: theirs is older or will be pushed again).
function Picker:follow_remote_query()
  if self.closed or not self.session or self.pending > 0 then return end
  local query = self.session:query()
  if query ~= self:prompt_text() then self:show_query(query) end
end

function Picker:show_query(query)
  self.last_text = query
  api.nvim_buf_set_lines(self.prompt_buf, 0, -1, false, { query })
  if api.nvim_get_current_win() == self.prompt_win then
    api.nvim_win_set_cursor(self.prompt_win, { 1, #query })
  end
end

function Picker:on_session(kind)
  if self.closed then return end
  if kind == "stateChanged" then
    self:follow_remote_query()
  else
    self:draw()
  end
end

-- The current page for the session's version, when attaching brings no push.
function Picker:refresh()
  local session = self.session
  self.client:request("loadPage", { session = session.name, searcher = session.searcher, page = 0,
                                    stateVersion = session.version }, function(err, page)
    if err or self.closed or session.results then return end -- -32801: newer results are on their way
    page = type(page.result) == "table" and page.result or page -- {session, stateVersion, searcher, result}
    page.searcher = session.searcher
    session.results = page
    self:draw()
  end)
end

function Picker:draw()
  local result = self.session and self.session.results
  if self.closed or not result then return end
  if self.more_for ~= result then self.more_for, self.more, self.loading = result, {}, false end
  self.hits = vim.list_extend(vim.list_slice(type(result.hits) == "table" and result.hits or {}), self.more)
  local capabilities = self.client.server and self.client.server.capabilities or {}
  local lines, highlights = render.results(self.hits, self.preferred, capabilities.positionEncoding)
  self.lines, self.highlights = lines, highlights
  api.nvim_buf_set_lines(self.results_buf, 0, -1, false, lines)
  api.nvim_buf_clear_namespace(self.results_buf, ns, 0, -1)
  for _, span in ipairs(highlights) do
    api.nvim_buf_add_highlight(self.results_buf, ns, span[4], span[1], span[2], span[3])
  end
  self.selected = math.max(1, math.min(self.selected, #lines))
  if #lines > 0 then api.nvim_win_set_cursor(self.results_win, { self.selected, 0 }) end
  api.nvim_buf_clear_namespace(self.prompt_buf, status_ns, 0, -1)
  api.nvim_buf_set_extmark(self.prompt_buf, status_ns, 0, 0, {
    virt_text = { { render.status(result, self.session:current_index()), "QuarryDim" } }, virt_text_pos = "right_align",
  })
  if self.facets_buf then
    local facet_lines, facet_highlights, entries
    if self.session:facets_searcher() then
      facet_lines, facet_highlights, entries = render.facets(self.session:facets(), self.info.facets, self.dates)
    else
      facet_lines, facet_highlights, entries = { self:no_facets_text() }, { { 0, 0, -1, "QuarryDim" } }, {}
    end
    self.facet_entries = entries
    api.nvim_buf_set_lines(self.facets_buf, 0, -1, false, facet_lines)
    api.nvim_buf_clear_namespace(self.facets_buf, ns, 0, -1)
    for _, span in ipairs(facet_highlights) do
      api.nvim_buf_add_highlight(self.facets_buf, ns, span[4], span[1], span[2], span[3])
    end
  end
end

function Picker:move(delta)
  if #self.hits == 0 then return end
  if self.selected + delta > #self.hits then self:load_more() end
  self.selected = math.max(1, math.min(#self.hits, self.selected + delta))
  api.nvim_win_set_cursor(self.results_win, { self.selected, 0 })
end

-- Scrolling past the last hit asks for the next page of the version shown;
-- a newer version (-32801) brings its own first page instead.
function Picker:load_more()
  local result, session = self.session and self.session.results, self.session
  if not result or self.loading then return end
  local page = (tonumber(result.page) or 0) + math.floor(#self.more / math.max(1, tonumber(result.hitsPerPage) or 1)) + 1
  if page >= (tonumber(result.nbPages) or 0) then return end
  self.loading = true
  self.client:request("loadPage", { session = session.name, searcher = session.searcher, page = page,
                                    stateVersion = session.results_version or session.version }, function(err, reply)
    if self.closed or self.more_for ~= result then return end
    self.loading = false
    local next_page = not err and (type(reply.result) == "table" and reply.result or reply)
    if not next_page or type(next_page.hits) ~= "table" then return end
    vim.list_extend(self.more, next_page.hits)
    self:draw()
  end)
end

-- Why the panel is empty when the session was opened without facets, and what to do.
function Picker:no_facets_text()
  local declared = table.concat(self.info.facets, ", ")
  local key = self.config.keys.add_facets
  if not key then return "This session has no facets (it was opened without them); the index declares: " .. declared end
  return string.format("This session has no facets (it was opened without them, as quarry fzf does); "
    .. "%s adds the ones the index declares: %s", key, declared)
end

-- Adds the facets the index declares to a session that has none; the panel fills in with the push that follows.
function Picker:add_facets()
  if not self.session or self.adding or self.session:facets_searcher() then return end
  self.adding = true
  self.session:add_facets(self.info.facets, function(err)
    self.adding = false
    if err then vim.notify("quarry: " .. tostring(err.message), vim.log.levels.WARN) end
  end)
end

function Picker:focus_facets()
  vim.cmd("stopinsert")
  api.nvim_set_current_win(self.facets_win)
end

function Picker:focus_prompt()
  api.nvim_set_current_win(self.prompt_win)
  vim.cmd("startinsert!")
end

function Picker:toggle_facet_at_cursor()
  local line = api.nvim_win_get_cursor(self.facets_win)[1]
  local entry = self.facet_entries and self.facet_entries[line]
  if entry and self.session then self.session:toggle_facet(entry.attribute, entry.value) end
end

function Picker:toggle_relevant_sort()
  if self.session then self.session:toggle_relevant_sort() end
end

-- Sort-by: the next of the index and its replicas.
function Picker:next_sort()
  if not self.session or #self.info.sort_indices < 2 then return end
  local current, choices = self.session:current_index(), self.info.sort_indices
  local position = 1
  for i, name in ipairs(choices) do
    if name == current then position = i end
  end
  self.session:set_index(choices[position % #choices + 1])
end

-- <CR>: open a path or URL attribute, else insert the shown text where the cursor was.
function Picker:select()
  local hit = self.hits[self.selected]
  self:close()
  if not hit then return end
  if self.config.on_select then return self.config.on_select(hit, self) end
  for _, attribute in ipairs(self.config.open_attributes) do
    local value = hit[attribute]
    if type(value) == "string" and value ~= "" then
      if value:match("^%a[%w+.-]*://") then
        if vim.ui.open then return vim.ui.open(value) end
        return vim.fn.jobstart({ "xdg-open", value }, { detach = true })
      end
      return vim.cmd("edit " .. vim.fn.fnameescape(value))
    end
  end
  local text = render.value_at(hit, render.display_attribute(hit, self.preferred))
  if type(text) == "string" then api.nvim_put({ text }, "c", true, true) end
end

function Picker:close()
  if self.closed then return end
  self.closed = true
  if M.current == self then M.current = nil end
  pcall(api.nvim_del_augroup_by_id, self.augroup)
  if self.session then self.session:detach() end
  for _, win in ipairs({ self.prompt_win, self.results_win, self.facets_win }) do
    if win and api.nvim_win_is_valid(win) then api.nvim_win_close(win, true) end
  end
  vim.cmd("stopinsert")
  if api.nvim_win_is_valid(self.origin) then api.nvim_set_current_win(self.origin) end
end

M.Picker = Picker
return M
