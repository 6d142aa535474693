-- Quarry for Neovim: a live search picker on a shared Quarry session.
-- `require("quarry").setup{…}` is optional; `:Quarry {index} [session]` opens the picker.
local M = {}

M.config = {
  -- How to reach the daemon: a command speaking JSON-RPC on stdio.
  cmd = { "quarry", "connect" },
  -- Attributes whose value <CR> opens (a path with :edit, a URL with the system opener).
  open_attributes = { "path", "file", "filename", "url", "uri", "link", "href" },
  -- index name → attribute each line shows (default: the first searchable attribute).
  display = {},
  hits_per_page = 50,
  -- Match ranges: UTF-16 is converted to byte columns with vim.str_byteindex;
  -- UTF-8 would map directly. UTF-16 first: session pushes use it for every
  -- connection today (see the report), so it is right either way.
  position_encodings = { "utf-16", "utf-8" },
  -- Facets shown as dates (YYYY-MM-DD): a list of attribute names, or a map
  -- name → true/false. Unlisted ones are dates when they look like timestamps
  -- (see :help quarry-dates); `false` keeps one as numbers.
  date_facets = {},
  -- Called with (hit, picker) on <CR> instead of the default action when set.
  on_select = nil,
  width = 0.8,
  height = 0.7,
  -- Keys in the picker's prompt (insert and normal mode).
  keys = {
    select = "<CR>", next = "<C-n>", previous = "<C-p>", facets = "<Tab>",
    relevant_sort = "<C-r>", sort_by = "<C-s>", close = "<C-c>",
    -- On a session whose hits searcher has no facets (one `quarry fzf` created): add them.
    add_facets = "<C-f>",
  },
}

local connection

function M.setup(options)
  M.config = vim.tbl_deep_extend("force", M.config, options or {})
  if options and options.cmd then M.config.cmd = options.cmd end
end

-- The shared connection (started and initialized on first use), or nil and an error.
function M.client()
  if connection and not connection.lost and not connection.closed then return connection end
  local rpc = require("quarry.rpc")
  local client, err = rpc.start(M.config.cmd)
  if not client then return nil, err end
  local result, init_err = client:request_sync("initialize", {
    clientInfo = { name = "quarry.nvim" },
    capabilities = { general = { positionEncodings = M.config.position_encodings } },
  }, 10000)
  if not result then
    client:close()
    local tail = table.concat(client.stderr_tail, "")
    return nil, (init_err and init_err.message or "no reply") .. (tail ~= "" and (": " .. tail) or "")
  end
  client.server = result
  client:notify("initialized")
  connection = client
  -- Leave cleanly (shutdown, exit) rather than by the pipe closing under the daemon.
  vim.api.nvim_create_autocmd("VimLeavePre", { once = true, callback = function() M.disconnect() end })
  return client
end

-- Closes the shared connection (the daemon keeps running).
function M.disconnect()
  if connection then connection:close() end
  connection = nil
end

function M.open(index, session)
  local client, err = M.client()
  if not client then
    vim.notify("quarry: cannot reach the daemon: " .. tostring(err) .. " (see :checkhealth quarry)", vim.log.levels.ERROR)
    return nil
  end
  return require("quarry.picker").open(client, index, session or ("nvim-" .. vim.fn.getpid()), M.config)
end

-- For :Quarry's completion: index names, if the daemon answers quickly.
function M.complete_indices(lead)
  local client = M.client()
  if not client then return {} end
  local result = client:request_sync("listIndices", nil, 2000)
  local names = {}
  for _, item in ipairs(result and result.items or {}) do
    if item.name:sub(1, #lead) == lead then table.insert(names, item.name) end
  end
  return names
end

return M
