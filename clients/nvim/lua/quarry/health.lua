-- :checkhealth quarry: is Neovim new enough, is the binary there, does the
-- daemon answer, and does it speak what the picker needs?
local M = {}

local health = vim.health or require("health")
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local error = health.error or health.report_error

function M.check()
  start("quarry.nvim")
  if vim.fn.has("nvim-0.7") == 1 then
    ok("Neovim " .. tostring(vim.version().major) .. "." .. tostring(vim.version().minor))
  else
    error("Neovim 0.7 or newer is needed", { "Debian bookworm ships 0.7.2: apt-get install neovim" })
  end

  local quarry = require("quarry")
  local cmd = quarry.config.cmd
  if vim.fn.executable(cmd[1]) == 1 then
    ok("found " .. vim.fn.exepath(cmd[1]))
  else
    error("`" .. cmd[1] .. "` is not executable", {
      "Build it: ./scripts/setup, then put .build/release/quarry on $PATH",
      "Or point the plugin at it: require('quarry').setup{ cmd = { '/path/to/quarry', 'connect' } }",
    })
    return
  end

  local client, err = quarry.client()
  if not client then
    error("the daemon did not answer: " .. tostring(err), {
      "Run `" .. table.concat(cmd, " ") .. "` in a terminal to see why",
      "Start one by hand: quarry serve --daemon (it logs to stderr)",
      "A stale socket is replaced automatically; check $QUARRY_SOCK / $XDG_RUNTIME_DIR if you set them",
    })
    return
  end
  local server = client.server or {}
  local info = server.serverInfo or {}
  ok(string.format("daemon %s %s answers (protocol %s)", tostring(info.name), tostring(info.version),
    tostring(server.protocolVersion)))

  local capabilities = server.capabilities or {}
  local encoding = capabilities.positionEncoding
  if encoding == "utf-8" or encoding == "utf-16" then
    ok("match ranges in " .. encoding .. " (converted to byte columns for highlights)")
  else
    warn("the daemon chose " .. tostring(encoding) .. " positions; highlights may be misplaced",
      { "Upgrade quarry: it should accept utf-16 or utf-8" })
  end
  local methods = {}
  for _, name in ipairs(capabilities.methods or {}) do methods[name] = true end
  local missing = {}
  for _, name in ipairs({ "openSession", "setQuery", "toggleFilter", "toggleRelevantSort", "setIndex", "loadPage" }) do
    if not methods[name] then table.insert(missing, name) end
  end
  if #missing == 0 then
    ok("session methods available")
  else
    error("the daemon lacks " .. table.concat(missing, ", "), { "Upgrade quarry to a version with sessions" })
  end

  local indices = client:request_sync("listIndices", nil, 5000)
  local count = indices and indices.items and #indices.items or 0
  if count > 0 then
    ok(count .. " indices; try :Quarry " .. indices.items[1].name)
  else
    warn("no indices yet", { "Import one: quarry import NAME file.json" })
  end
end

return M
