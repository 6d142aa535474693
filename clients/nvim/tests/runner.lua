-- A small test runner for headless Neovim 0.7+ (which has no `-l`):
--   nvim --headless -u NONE -i NONE -c "luafile tests/runner.lua" -- tests/render_spec.lua ...
-- Each spec returns a list of {name, function}; `skip(reason)` marks a test skipped.
-- Exits 0 when every test passed or was skipped, else 1 (through :cq).
local root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h")
vim.opt.runtimepath:prepend(root)
vim.cmd("runtime plugin/quarry.lua")

local SKIP = {}
_G.skip = function(reason) error({ [SKIP] = reason }, 0) end

local function report(text)
  io.stdout:write(text .. "\n")
  io.stdout:flush()
end

local files = {}
for _, arg in ipairs(vim.fn.argv()) do table.insert(files, arg) end
if #files == 0 then files = vim.fn.glob(root .. "/tests/*_spec.lua", false, true) end

local passed, failed, skipped = 0, 0, 0
for _, file in ipairs(files) do
  local ok, specs = pcall(dofile, file)
  if not ok then
    report("FAIL " .. file .. ": " .. tostring(specs))
    failed = failed + 1
    specs = {}
  end
  for _, spec in ipairs(specs) do
    local name, body = spec[1], spec[2]
    local success, err = xpcall(body, function(e)
      if type(e) == "table" and e[SKIP] then return e end
      return debug.traceback(tostring(e), 2)
    end)
    if success then
      passed = passed + 1
      report("ok   " .. name)
    elseif type(err) == "table" and err[SKIP] then
      skipped = skipped + 1
      report("skip " .. name .. ": " .. err[SKIP])
    else
      failed = failed + 1
      report("FAIL " .. name .. "\n" .. tostring(err))
    end
    if specs.after_each then pcall(specs.after_each) end
  end
end
report(string.format("%d passed, %d failed, %d skipped", passed, failed, skipped))
if failed > 0 then vim.cmd("cquit 1") else vim.cmd("qall!") end
