-- Shared by the specs: assertions, waiting on the event loop, and the picker under test.
local H = {}

function H.eq(expected, actual, what)
  if not vim.deep_equal(expected, actual) then
    error(string.format("%s: expected %s, got %s", what or "value", vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

function H.truthy(value, what)
  if not value then error((what or "condition") .. " was false", 2) end
end

-- Processes events until `predicate()` holds; fails with `what` after `timeout` ms.
function H.wait(predicate, what, timeout)
  if not vim.wait(timeout or 15000, predicate, 10) then error("never happened: " .. what, 2) end
end

-- Types one keystroke at a time into the picker's prompt, as a person would.
function H.type(picker, text)
  for character in text:gmatch(".") do
    vim.api.nvim_set_current_win(picker.prompt_win)
    vim.api.nvim_feedkeys("A" .. character, "xt", false)
  end
end

function H.press(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "xt", false)
end

-- The QuarryMatch spans drawn in a buffer: {line, start, end} (0-based, end exclusive).
function H.drawn_matches(buf)
  local ns = vim.api.nvim_create_namespace("quarry")
  local spans = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
    if mark[4].hl_group == "QuarryMatch" then table.insert(spans, { mark[2], mark[3], mark[4].end_col }) end
  end
  table.sort(spans, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
  return spans
end

function H.setup()
  local quarry = require("quarry")
  quarry.setup({ cmd = { vim.env.QUARRY_BIN, "connect", "--socket", vim.env.QUARRY_TEST_SOCKET } })
  return quarry
end

return H
