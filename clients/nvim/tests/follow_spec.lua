-- The picker follows a change made by another frontend: Python (the pytest
-- driving this file) sets the session's query once this picker is ready.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helpers.lua")
H.setup()

return {
  { "a query set from Python shows in the prompt and the results", function()
    vim.cmd("Quarry people shared")
    local picker = require("quarry.picker").current
    H.wait(function() return picker.session and picker.session.results end, "attached")
    vim.fn.writefile({ "ready" }, vim.env.QUARRY_TEST_DIR .. "/picker-ready")
    H.wait(function() return picker:prompt_text() == "pitt" end, "the prompt follows Python's query", 30000)
    H.wait(function() return picker.lines and #picker.lines == 1 end, "the results follow", 30000)
    H.eq({ "Brad Pitt" }, vim.api.nvim_buf_get_lines(picker.results_buf, 0, -1, false))
    H.eq("pitt", picker.session:query())
    picker:close()
  end },
}
