-- One of three frontends on one session (Tests/EndToEnd/test_clients_together.py
-- drives the other two): the picker follows fzf's typing, then types itself.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helpers.lua")
H.setup()
local dir = vim.env.QUARRY_TEST_DIR

return {
  { "the picker follows fzf, then Python sees the picker's typing", function()
    vim.cmd("Quarry people together")
    local picker = require("quarry.picker").current
    H.wait(function() return picker.session and picker.session.results end, "attached")
    vim.fn.writefile({ "ready" }, dir .. "/nvim-ready")
    H.wait(function() return picker:prompt_text() == "brad" and picker.lines and #picker.lines == 1 end,
      "fzf's query and its results in the picker", 30000)
    H.eq({ "Brad Pitt" }, vim.api.nvim_buf_get_lines(picker.results_buf, 0, -1, false))
    vim.api.nvim_buf_set_lines(picker.prompt_buf, 0, -1, false, { "" })
    H.type(picker, "amal")
    H.wait(function() return picker.session.results.query == "amal" and #picker.lines == 1 end, "our own results")
    H.eq({ "Amal Clooney" }, vim.api.nvim_buf_get_lines(picker.results_buf, 0, -1, false))
    H.wait(function() return vim.fn.filereadable(dir .. "/python-saw-amal") == 1 end, "Python saw the typing", 30000)
    picker:close()
  end },
}
