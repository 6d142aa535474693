-- A shared search session as the picker sees it: attach (creating the session
-- or its hits searcher if missing), change it, and follow every change pushed
-- for it, whoever made it. Pushes older than one already seen are dropped.
local M = {}

local Session = {}
Session.__index = Session

local function is_list(value) return type(value) == "table" end

local function reporting(callback)
  return function(err, result)
    if err and callback then return callback(err) end
    if err then
      vim.notify("quarry: " .. tostring(err.message), vim.log.levels.WARN)
    elseif callback then
      callback(nil, result)
    end
  end
end

-- Attaches to `name` on `client` with a hits searcher on `index`;
-- `callback(session)` or `callback(nil, err)`.
function M.attach(client, name, index, opts, callback)
  opts = opts or {}
  local searcher_spec = { type = "hits", index = index, hitsPerPage = opts.hits_per_page or 50 }
  if opts.facets and #opts.facets > 0 then searcher_spec.facets = opts.facets end
  local session = setmetatable({ client = client, name = name, index = index, version = 0,
                                 state = nil, results = nil, listeners = {} }, Session)
  session.unsubscribe = client:on_notification(function(method, params) session:_receive(method, params) end)
  client:request("openSession", { session = name, searchers = { searcher_spec } }, function(err, opened)
    if err then
      session:detach()
      return callback(nil, err)
    end
    session:_receive("stateChanged", { session = name, stateVersion = opened.stateVersion, state = opened.state })
    local existing = session:hits_searcher_for(index)
    if existing then
      session.searcher = existing
      return callback(session)
    end
    local params = vim.tbl_extend("force", searcher_spec, { session = name })
    params.type = nil
    client:request("addHitsSearcher", params, function(add_err, added)
      if add_err then
        session:detach()
        return callback(nil, add_err)
      end
      session.searcher = added.searcher
      callback(session)
    end)
  end)
end

function Session:hits_searcher_for(index)
  for _, searcher in ipairs(self.state and self.state.searchers or {}) do
    -- hitsPerPage 0: one that only carries facet lists (`add_facets`), not hits to show.
    if searcher.type == "hits" and searcher.index == index and searcher.hitsPerPage ~= 0 then
      return searcher.searcher
    end
  end
  -- A sort-by switch points our searcher at a replica: keep following it.
  if self.searcher then
    for _, searcher in ipairs(self.state and self.state.searchers or {}) do
      if searcher.searcher == self.searcher then return self.searcher end
    end
  end
  return nil
end

function Session:_receive(method, params)
  if type(params) ~= "table" or params.session ~= self.name then return end
  local version = tonumber(params.stateVersion) or 0
  if method == "stateChanged" then
    if self.state and version < self.version then return end
    self.version, self.state = version, params.state
  elseif method == "resultsUpdated" then
    if self.results and version < (self.results_version or 0) then return end
    self.results_version = version
    self.results_by_searcher = {}
    for _, result in ipairs(is_list(params.results) and params.results or {}) do
      if result.searcher == self.searcher then self.results = result end
      if result.searcher then self.results_by_searcher[result.searcher] = result end
    end
  else
    return
  end
  for _, listener in ipairs(self.listeners) do listener(method, self) end
end

local function searcher_in_state(self, id)
  for _, searcher in ipairs(self.state and self.state.searchers or {}) do
    if searcher.searcher == id then return searcher end
  end
end

-- The hits searcher whose results carry the facet lists: ours if it asks for
-- facets, else another hits searcher of the session on our index that does
-- (one `add_facets` added beside a searcher created without facets, by
-- `quarry fzf` say); nil when none does.
function Session:facets_searcher()
  local ours = searcher_in_state(self, self.searcher)
  if ours and is_list(ours.facets) and #ours.facets > 0 then return self.searcher end
  local index = self:current_index()
  for _, searcher in ipairs(self.state and self.state.searchers or {}) do
    if searcher.type == "hits" and (searcher.index == index or searcher.index == self.index)
        and is_list(searcher.facets) and #searcher.facets > 0 then
      return searcher.searcher
    end
  end
  return nil
end

-- The facet lists of the results shown: `{attribute: [{value, count, isRefined}]}`, or nil.
function Session:facets()
  local id = self:facets_searcher()
  if not id then return nil end
  local result = id == self.searcher and self.results or (self.results_by_searcher or {})[id]
  return result and result.facets
end

-- Adds the facet lists to a session whose hits searcher has none: a second hits
-- searcher on our index with `facets` and no hits. It shares the session's query
-- and filters, so its counts are those of our hits; ours, which another frontend
-- may be following, is left as it is (a hits searcher's facets cannot be changed:
-- protocol/methods/addHitsSearcher.md).
function Session:add_facets(facets, callback)
  self.client:request("addHitsSearcher", { session = self.name, index = self.index, hitsPerPage = 0, facets = facets },
    reporting(callback))
end

-- `listener(kind, session)` after each stateChanged / resultsUpdated.
function Session:subscribe(listener)
  table.insert(self.listeners, listener)
end

function Session:query()
  return self.state and self.state.query or ""
end

-- The searcher's current index (a replica after a sort-by switch).
function Session:current_index()
  for _, searcher in ipairs(self.state and self.state.searchers or {}) do
    if searcher.searcher == self.searcher then return searcher.index end
  end
  return self.index
end

function Session:set_query(text, callback)
  self.client:request("setQuery", { session = self.name, query = text }, reporting(callback))
end

-- Toggles the facet value in the or-group named after the attribute (disjunctive, as a refinement list).
function Session:toggle_facet(attribute, value, callback)
  self.client:request("toggleFilter", {
    session = self.name, filter = { attribute = attribute, value = value },
    group = { name = attribute, operator = "or" },
  }, reporting(callback))
end

function Session:toggle_relevant_sort(callback)
  self.client:request("toggleRelevantSort", { session = self.name, searcher = self.searcher }, reporting(callback))
end

function Session:set_index(index, callback)
  self.client:request("setIndex", { session = self.name, searcher = self.searcher, index = index }, reporting(callback))
end

-- Stops following and tells the daemon this connection left the session.
function Session:detach()
  if self.unsubscribe then self.unsubscribe() end
  self.unsubscribe = nil
  self.listeners = {}
  if not self.client.lost and not self.client.closed then
    self.client:request("closeSession", { session = self.name })
  end
end

M.Session = Session
return M
